// The registry this project installs from answers 404 for some optional packages of other
// platforms (e.g. @cbor-extract/cbor-extract-darwin-arm64@2.2.3), so npm cannot record them in
// package-lock.json and `npm ci` then refuses the lock as "out of sync". Listing each missing one
// by name and version satisfies `npm ci`. When the registry does know one, its `os`, `cpu` and
// `libc` go in too: without them npm installs every platform's binaries (a missing one is only
// tried, fails and is skipped, as any optional package). Idempotent.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path === '' ? '' : `${path}/`}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[hoisted]) continue;
    lock.packages[hoisted] = { version, ...(entry.dev && { dev: true }), optional: true, ...platformOf(name, version) };
    added++;
  }
}
if (added > 0) writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: listed ${added} optional packages of other platforms`);

/** The `os`, `cpu` and `libc` the registry gives for a package version; none when it does not know it. */
function platformOf(name, version) {
  let manifest;
  try {
    manifest = JSON.parse(execFileSync('npm', ['view', `${name}@${version}`, 'os', 'cpu', 'libc', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }) || '{}');
  } catch {
    return {};
  }
  return Object.fromEntries(['os', 'cpu', 'libc'].flatMap((key) => (manifest[key] ? [[key, [manifest[key]].flat()]] : [])));
}
