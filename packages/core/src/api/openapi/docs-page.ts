/**
 * The API reference page: Swagger UI over the generated document. Every URL is relative to the
 * page (`{mount}/docs`), so it works wherever ChainLens is mounted.
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ChainLens API reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

/** Starts Swagger UI (a file of its own rather than inline, so a strict script policy can allow it). */
export const DOCS_INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: 'api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;
