import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

/**
 * One build config for every package: run from a package folder (`npm run build -w <pkg>`),
 * it builds each entry of that package's `exports` map to ESM + CJS + `.d.ts`.
 */
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  exports: Record<string, { source: string }>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

const entry = Object.fromEntries(
  Object.entries(pkg.exports).map(([key, value]) => [key === '.' ? 'index' : key.slice(2), value.source]),
);

export default defineConfig({
  entry,
  format: ['esm', 'cjs'],
  // Types of the other workspace packages from their built .d.ts rather than their sources: a
  // package's declarations then build without type-checking core's whole source again (core
  // builds first in the workspace order).
  dts: { compilerOptions: { customConditions: [] } },
  clean: true,
  sourcemap: false,
  target: 'node20',
  external: [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})],
});
