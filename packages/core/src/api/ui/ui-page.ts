/**
 * The explorer page's HTML for a page served at `path` (relative to the mount point). Every URL
 * in it is relative, so it works wherever ChainLens is mounted: `data-root` tells the script where
 * the mount point is (for `api/v1/…` and `ws`), relative to the page. The empty icon spares a
 * request for `/favicon.ico`, which no route answers.
 */
export function uiPage(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const root = segments.length > 1 ? '../'.repeat(segments.length - 1) : './';
  const assets = segments.length > 0 ? `${segments.at(-1)}/assets/` : 'assets/';
  return `<!doctype html>
<html lang="en" data-root="${root}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ChainLens explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets}app.css">
</head>
<body>
<div id="app"></div>
<noscript>The ChainLens explorer needs JavaScript. The API reference is at <a href="${root}docs">docs</a>.</noscript>
<script type="module" src="${assets}app.js"></script>
</body>
</html>
`;
}
