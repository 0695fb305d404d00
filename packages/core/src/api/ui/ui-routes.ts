import { defineRoute, textFormat, type Route } from '../../http/index.js';
import { UI_FILES, uiAssets, type UiFile } from './ui-assets.js';
import { uiPage } from './ui-page.js';

const HTML = textFormat('text/html; charset=utf-8');

/**
 * The explorer page at `GET {path}` and its script and style sheet at `GET {path}/assets/…`, from
 * the built `@chainlens/ui` (see {@link uiAssets}).
 */
export function uiRoutes(path: string): Route[] {
  const asset = uiAssets();
  const page = uiPage(path);
  const base = path === '/' ? '' : path;
  return [
    defineRoute({ method: 'GET', path, auth: 'none', summary: 'The explorer web page', format: HTML, handler: () => page }),
    ...Object.entries(UI_FILES).map(([file, contentType]) =>
      defineRoute({ method: 'GET', path: `${base}/assets/${file}`, auth: 'none', summary: `The explorer page's ${file}`, format: textFormat(contentType), handler: () => asset(file as UiFile) }),
    ),
  ];
}
