// Keeps the built server current for `npm start` (see start.mjs). Plain JavaScript: it runs
// before anything is built.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = fileURLToPath(new URL('.', import.meta.url));
const BUILT = fileURLToPath(new URL('dist/main.js', import.meta.url));
/** The explorer page (`@chainlens/ui`), built apart: core reads its files by path at run time, so the server bundle holds none of it. */
const UI = join(ROOT, 'packages/ui');
const UI_BUILT = join(UI, 'dist/app.js');

/**
 * The newest modification time (ms) of `path` and, for a folder, of everything under it but `node_modules` and `dist`.
 * @param {string} path
 * @returns {number}
 */
export function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name !== 'node_modules' && name !== 'dist') latest = Math.max(latest, newestChange(join(path, name)));
  }
  return latest;
}

/**
 * What the server's build reads in the repository at `root`: each workspace's sources and
 * manifest, the installed dependencies (by the lock file), and the server's build config.
 * @param {string} root
 * @returns {string[]}
 */
export function buildInputs(root) {
  const inputs = [join(root, 'package-lock.json'), join(root, 'examples/server/tsup.config.ts')];
  for (const folder of ['packages', 'examples']) {
    for (const name of readdirSync(join(root, folder))) {
      // The page's sources go into its own build (see uiBuildInputs), not into the server's.
      if (folder === 'packages' && name === 'ui') continue;
      inputs.push(join(root, folder, name, 'src'), join(root, folder, name, 'package.json'));
    }
  }
  return inputs;
}

/**
 * What the explorer page's build reads in the repository at `root`: its sources, build script and
 * manifest, and the installed dependencies (by the lock file).
 * @param {string} root
 * @returns {string[]}
 */
export function uiBuildInputs(root) {
  return [join(root, 'packages/ui/src'), join(root, 'packages/ui/build.mjs'), join(root, 'packages/ui/package.json'), join(root, 'package-lock.json')];
}

/**
 * Whether `output` is missing or older than any of `inputs`.
 * @param {string} output
 * @param {readonly string[]} inputs
 * @returns {boolean}
 */
export function isStale(output, inputs) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return inputs.some((input) => newestChange(input) > built);
}

/**
 * Builds the server (one bundle from the workspace sources, a few seconds) and the explorer page
 * it serves (a fraction of a second), each when its last build is missing or older than what it
 * reads. Throws when a build fails; its errors are on stderr.
 */
export function buildIfStale() {
  if (isStale(BUILT, buildInputs(ROOT))) {
    console.error('ChainLens: building the server (its sources changed since the last build)…');
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: SERVER, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) throw new Error(`the build failed (exit ${build.status ?? build.signal}); see above`);
  }
  if (isStale(UI_BUILT, uiBuildInputs(ROOT))) {
    console.error('ChainLens: building the explorer page (its sources changed since the last build)…');
    const build = spawnSync(process.execPath, [join(UI, 'build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) throw new Error(`the explorer page's build failed (exit ${build.status ?? build.signal}); see above`);
  }
}
