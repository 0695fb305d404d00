import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** Under the repository's node_modules, so that the bundle's dependencies resolve from there. */
const OUT = fileURLToPath(new URL('../../../node_modules/.cache/chainlens-test-children/', import.meta.url));

/**
 * Leaves every package but the workspace's own out of the bundle, imported by the file its
 * importer resolves to (some sit in a workspace's own node_modules, out of the bundle's reach).
 */
const dependenciesExternal: Plugin = {
  name: 'dependencies-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@chainlens/') || args.pluginData === 'resolving') return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' });
      return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path, external: true };
    });
  },
};

/**
 * Bundles the entry of a child process the crash tests start (and the workspace sources it
 * imports, by their `source` condition) into one ES module, and resolves its path; start it with
 * `node --conditions=source <path>`. The tests start such a child again and again: loading one
 * file takes a fraction of tsx transpiling and loading core's hundreds of modules, ~2 s of CPU
 * each time.
 */
export async function bundleChild(entry: string): Promise<string> {
  await mkdir(OUT, { recursive: true });
  const outfile = `${OUT}${basename(entry, '.ts')}-${process.pid}.mjs`;
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    plugins: [dependenciesExternal],
    logLevel: 'silent',
  });
  return outfile;
}
