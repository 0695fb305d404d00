import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nodeRequire } from '../../devchain/node-require.js';

/** The swagger-ui-dist files the docs page loads, by the name it is served under. */
export const SWAGGER_UI_FILES = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;

/** One of {@link SWAGGER_UI_FILES}. */
export type SwaggerUiFile = keyof typeof SWAGGER_UI_FILES;

/**
 * Reads swagger-ui-dist's files from the installed package on first use (the page is
 * self-hosted: nothing is fetched from a CDN) and keeps them.
 */
export function swaggerUiAssets(): (file: SwaggerUiFile) => string {
  const kept = new Map<SwaggerUiFile, string>();
  const root = dirname(nodeRequire.resolve('swagger-ui-dist/package.json'));
  return (file) => {
    let text = kept.get(file);
    if (text === undefined) {
      text = readFileSync(join(root, file), 'utf8');
      kept.set(file, text);
    }
    return text;
  };
}
