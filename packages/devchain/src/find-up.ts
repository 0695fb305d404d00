import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Looks for `relativePath` in `from` and each of its ancestors and returns the first full path
 * that exists, or `undefined`.
 */
export function findUp(relativePath: string, from: string = process.cwd()): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, relativePath);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
