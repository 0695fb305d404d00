import { defineRoute, textFormat, type Route } from '../../http/index.js';
import { packageAssetRoutes } from '../package-asset-routes.js';
import { UI_ASSETS, assertUiBuilt } from './ui-assets.js';
import { uiPage } from './ui-page.js';

const HTML = textFormat('text/html; charset=utf-8');

/**
 * The explorer page at `GET {path}` and its script and style sheet at `GET {path}/assets/…`, from
 * the built `@chainlens/ui` (see {@link assertUiBuilt}).
 */
export function uiRoutes(path: string): Route[] {
  assertUiBuilt();
  const page = uiPage(path);
  const base = path === '/' ? '' : path;
  return [
    defineRoute({ method: 'GET', path, auth: 'none', summary: 'The explorer web page', format: HTML, handler: () => page }),
    ...packageAssetRoutes(`${base}/assets`, 'The explorer page', UI_ASSETS),
  ];
}
