import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    conditions: ['source'],
    // graphql ships index.mjs beside index.js without an exports map: Vite would pick the first and
    // Node (for @graphql-tools, graphql-ws, graphql-http) the second, two copies that refuse each other's schemas.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  ssr: { resolve: { conditions: ['source'] } },
  // Vitest loads globalSetup files in its own environment: without the condition there, they
  // would import the packages' dist/, which a fresh clone has not built.
  environments: { __vitest__: { resolve: { conditions: ['source'] } } },
  test: {
    // docs/ holds the test that keeps the README's and the docs' links and code true.
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'docs/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one file less than the cores: on CI's 2 cores, one file at a time. Most
    // files spend their time waiting on anvil, Postgres, a browser or a child process, so two at
    // once finish well sooner there; larger machines keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['packages/storage-postgres/test/global-setup.ts', 'packages/ui/test/global-setup.ts'],
  },
});
