/**
 * GraphiQL 3 for `GET /graphql` in a browser. It loads GraphiQL's and React's browser builds
 * from the unpkg CDN, pinned: GraphiQL ships no self-contained build without React and some
 * forty UI packages that a library's dependencies should not carry (see the README).
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>ChainLens GraphQL</title>
<style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
<link rel="stylesheet" href="https://unpkg.com/graphiql@3.8.3/graphiql.min.css">
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script crossorigin src="https://unpkg.com/react@18.3.1/umd/react.production.min.js"></script>
<script crossorigin src="https://unpkg.com/react-dom@18.3.1/umd/react-dom.production.min.js"></script>
<script crossorigin src="https://unpkg.com/graphiql@3.8.3/graphiql.min.js"></script>
<script>
  const url = new URL(location.pathname, location.href).toString();
  const fetcher = GraphiQL.createFetcher({ url });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, { fetcher, defaultQuery: '{\\n  blockchain {\\n    latestBlock { number hash timestamp }\\n  }\\n}\\n' }),
  );
</script>
</body>
</html>
`;

/** The GraphiQL page, querying the endpoint it was served from. */
export function graphiqlPage(): string {
  return PAGE;
}
