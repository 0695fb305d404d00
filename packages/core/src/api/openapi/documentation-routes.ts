import { defineRoute, textFormat, type Route } from '../../http/index.js';
import { DOCS_INIT_SCRIPT, DOCS_PAGE } from './docs-page.js';
import { createOpenApiDocument } from './openapi-document.js';
import { SWAGGER_UI_FILES, swaggerUiAssets, type SwaggerUiFile } from './swagger-ui-assets.js';

const HTML = textFormat('text/html; charset=utf-8');
const JAVASCRIPT = textFormat('text/javascript; charset=utf-8');

/**
 * `GET /api/v1/openapi.json` (the OpenAPI 3.1 description of `routes` and of these routes,
 * generated once, on its first request: not on every start, which it would slow) and `GET /docs`
 * (Swagger UI over it, served from swagger-ui-dist).
 */
export function documentationRoutes(routes: readonly Route[]): Route[] {
  const asset = swaggerUiAssets();
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
    ...Object.entries(SWAGGER_UI_FILES).map(([file, contentType]) =>
      defineRoute({ method: 'GET', path: `/docs/${file}`, auth: 'none', summary: `Swagger UI's ${file}`, format: textFormat(contentType), handler: () => asset(file as SwaggerUiFile) }),
    ),
  ];
  return own;
}
