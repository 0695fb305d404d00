import { randomUUID } from 'node:crypto';
import { accessSync, constants, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findUp } from './find-up.js';

/**
 * A JSON file cache for compiler output: `node_modules/.cache/chainlens-solc/` of the nearest
 * writable `node_modules` above the working directory, else `<os tmpdir>/chainlens-solc/`.
 */
export function cacheDir(): string {
  const nodeModules = findUp('node_modules');
  if (nodeModules && isWritable(nodeModules)) return join(nodeModules, '.cache', 'chainlens-solc');
  return join(tmpdir(), 'chainlens-solc');
}

/** Returns the cached value for `key`, or `undefined` when missing or unreadable. */
export function readCache<T>(key: string): T | undefined {
  try {
    return JSON.parse(readFileSync(join(cacheDir(), `${key}.json`), 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * Stores `value` under `key`. Writes a temp file and renames it so concurrent test workers
 * never read a half-written entry. Failures are ignored: the cache is only a speed-up.
 */
export function writeCache(key: string, value: unknown): void {
  const dir = cacheDir();
  const temp = join(dir, `${key}.${process.pid}.${randomUUID()}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, JSON.stringify(value));
    renameSync(temp, join(dir, `${key}.json`));
  } catch {
    rmSync(temp, { force: true });
  }
}

function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
