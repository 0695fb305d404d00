// The registry this project installs from answers 404 for other platforms' optional packages
// (e.g. @rollup/rollup-darwin-arm64), so npm cannot record them in package-lock.json and `npm ci`
// then refuses the lock as "out of sync". Listing each missing optional package by name and
// version (no integrity) satisfies `npm ci`; npm skips them on this platform as it does any
// optional package that does not apply. Idempotent.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path === '' ? '' : `${path}/`}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[hoisted]) continue;
    lock.packages[hoisted] = { version, optional: true };
    added++;
  }
}
if (added > 0) writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: listed ${added} optional packages of other platforms`);
