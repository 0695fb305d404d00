import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nodeRequire } from '../../runtime/node-require.js';
import { ConfigError } from '../../errors/index.js';
import { ASSET_TYPES, type PackageAsset } from '../package-asset-routes.js';

/**
 * The built files of `@chainlens/ui` the page loads, by name. Found by path at run time, so a
 * bundled server reads the package's files, not a copy.
 */
export const UI_ASSETS: Readonly<Record<string, PackageAsset>> = {
  'app.js': { package: '@chainlens/ui', file: 'dist/app.js', contentType: ASSET_TYPES.javascript },
  'app.css': { package: '@chainlens/ui', file: 'dist/app.css', contentType: ASSET_TYPES.css },
};

/**
 * Throws a {@link ConfigError} when the installed `@chainlens/ui` has not been built, so a missing
 * build fails at start-up rather than on the first visit.
 */
export function assertUiBuilt(): void {
  for (const asset of Object.values(UI_ASSETS)) {
    const path = join(dirname(nodeRequire.resolve(`${asset.package}/package.json`)), asset.file);
    if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) {
      throw new ConfigError('ui', `@chainlens/ui has no built page (${path} is missing): run \`npm run build -w @chainlens/ui\``);
    }
  }
}
