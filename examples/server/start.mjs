// `npm start`: runs the built server (dist/main.js, one bundle), not TypeScript through a loader;
// on a fresh clone, and whenever a source is newer than the last build, it builds it first.
import { buildIfStale } from './build-if-stale.mjs';

try {
  buildIfStale();
} catch (error) {
  console.error(`ChainLens: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
// By URL: the build's output, which the typecheck of this file must not read.
await import(new URL('./dist/main.js', import.meta.url).href);
