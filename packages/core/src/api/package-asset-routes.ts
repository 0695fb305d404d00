import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nodeRequire } from '../runtime/node-require.js';
import { defineRoute, textFormat, type Route } from '../http/index.js';

/** A file of an installed npm package that a page loads. */
export interface PackageAsset {
  /** The package (a dependency of `@chainlens/core`), found from this module. */
  package: string;
  /** The file's path inside the package. */
  file: string;
  contentType: string;
}

/**
 * `GET {base}/{name}` for each of `assets`, answered with the package's file, read on its first
 * request and kept: pages are self-hosted, nothing is fetched from a CDN (a machine without
 * internet shows them too). `owner` names whose files they are in the route summaries.
 */
export function packageAssetRoutes(base: string, owner: string, assets: Readonly<Record<string, PackageAsset>>): Route[] {
  return Object.entries(assets).map(([name, asset]) => {
    let text: string | undefined;
    return defineRoute({
      method: 'GET',
      path: `${base}/${name}`,
      auth: 'none',
      summary: `${owner}'s ${name}`,
      format: textFormat(asset.contentType),
      handler: () => (text ??= readFileSync(join(dirname(nodeRequire.resolve(`${asset.package}/package.json`)), asset.file), 'utf8')),
    });
  });
}

/** Media types of the assets pages load. */
export const ASSET_TYPES = {
  css: 'text/css; charset=utf-8',
  javascript: 'text/javascript; charset=utf-8',
} as const;
