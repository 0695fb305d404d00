import { ASSET_TYPES, type PackageAsset } from './package-asset-routes.js';

/**
 * GraphiQL for `GET /graphql` in a browser, self-hosted: GraphiQL 3's browser build and the React
 * 18 it runs on are served from their npm packages under `/graphql/…` (GraphiQL 4 and later ship
 * no such build). Every URL is relative to the page (`{mount}/graphql`), so it works wherever
 * ChainLens is mounted.
 */
export const GRAPHIQL_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ChainLens GraphQL</title>
<style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
<link rel="stylesheet" href="graphql/graphiql.min.css">
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="graphql/react.production.min.js"></script>
<script src="graphql/react-dom.production.min.js"></script>
<script src="graphql/graphiql.min.js"></script>
<script src="graphql/init.js"></script>
</body>
</html>
`;

/** Starts GraphiQL on the endpoint the page came from (a file of its own, so a strict script policy can allow it). */
export const GRAPHIQL_INIT_SCRIPT = `const fetcher = GraphiQL.createFetcher({ url: new URL(location.pathname, location.href).toString() });
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, { fetcher, defaultQuery: '{\\n  blockchain {\\n    latestBlock { number hash timestamp }\\n  }\\n}\\n' }),
);
`;

/** What the GraphiQL page loads from npm packages, by the name it is served under in `/graphql/`. */
export const GRAPHIQL_ASSETS: Readonly<Record<string, PackageAsset>> = {
  'graphiql.min.css': { package: 'graphiql', file: 'graphiql.min.css', contentType: ASSET_TYPES.css },
  'graphiql.min.js': { package: 'graphiql', file: 'graphiql.min.js', contentType: ASSET_TYPES.javascript },
  'react.production.min.js': { package: 'react', file: 'umd/react.production.min.js', contentType: ASSET_TYPES.javascript },
  'react-dom.production.min.js': { package: 'react-dom', file: 'umd/react-dom.production.min.js', contentType: ASSET_TYPES.javascript },
};
