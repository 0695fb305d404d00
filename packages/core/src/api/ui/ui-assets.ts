import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../../config.js';
import { nodeRequire } from '../../devchain/node-require.js';

/** The built files of `@chainlens/ui` the page loads, by name, with their content types. */
export const UI_FILES = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
} as const;

/** One of {@link UI_FILES}. */
export type UiFile = keyof typeof UI_FILES;

/**
 * The page's built files from the installed `@chainlens/ui` (its `dist/`), each read on its first
 * request and kept. Found by path at run time, so a bundled server reads the package's files, not
 * a copy. Throws a {@link ConfigError} at once when the package has not been built, so a missing
 * build fails at start-up rather than on the first visit.
 */
export function uiAssets(): (file: UiFile) => string {
  const dist = join(dirname(nodeRequire.resolve('@chainlens/ui/package.json')), 'dist');
  for (const file of Object.keys(UI_FILES)) {
    if (statSync(join(dist, file), { throwIfNoEntry: false })?.isFile() !== true) {
      throw new ConfigError('ui', `@chainlens/ui has no built page (${join(dist, file)} is missing): run \`npm run build -w @chainlens/ui\``);
    }
  }
  const kept = new Map<UiFile, string>();
  return (file) => {
    let text = kept.get(file);
    if (text === undefined) {
      text = readFileSync(join(dist, file), 'utf8');
      kept.set(file, text);
    }
    return text;
  };
}
