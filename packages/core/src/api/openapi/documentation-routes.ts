import { defineRoute, textFormat, type Route } from '../../http/index.js';
import { DOCS_INIT_SCRIPT, DOCS_PAGE } from './docs-page.js';
import { createOpenApiDocument } from './openapi-document.js';
import { ASSET_TYPES, packageAssetRoutes } from '../package-asset-routes.js';

const HTML = textFormat('text/html; charset=utf-8');
const JAVASCRIPT = textFormat(ASSET_TYPES.javascript);

/** What the API reference page loads from swagger-ui-dist. */
const SWAGGER_UI_ASSETS = {
  'swagger-ui.css': { package: 'swagger-ui-dist', file: 'swagger-ui.css', contentType: ASSET_TYPES.css },
  'swagger-ui-bundle.js': { package: 'swagger-ui-dist', file: 'swagger-ui-bundle.js', contentType: ASSET_TYPES.javascript },
};

/**
 * `GET /api/v1/openapi.json` (the OpenAPI 3.1 description of `routes` and of these routes,
 * generated once, on its first request: not on every start, which it would slow) and `GET /docs`
 * (Swagger UI over it, served from swagger-ui-dist).
 */
export function documentationRoutes(routes: readonly Route[]): Route[] {
  let documentJson: string | null = null;
  const own: Route[] = [
    defineRoute({
      method: 'GET',
      path: '/api/v1/openapi.json',
      auth: 'none',
      summary: 'This API described in OpenAPI 3.1',
      format: textFormat('application/json; charset=utf-8'),
      handler: () => (documentJson ??= JSON.stringify(createOpenApiDocument([...routes, ...own]))),
    }),
    defineRoute({ method: 'GET', path: '/docs', auth: 'none', summary: 'The API reference page', format: HTML, handler: () => DOCS_PAGE }),
    defineRoute({ method: 'GET', path: '/docs/init.js', auth: 'none', summary: "The API reference page's start script", format: JAVASCRIPT, handler: () => DOCS_INIT_SCRIPT }),
    ...packageAssetRoutes('/docs', 'Swagger UI', SWAGGER_UI_ASSETS),
  ];
  return own;
}
