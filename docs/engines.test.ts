import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The Node versions the root package.json (and the README) promise are ones every locked
 * package accepts: a version one of them refuses makes `npm ci` warn EBADENGINE, and may break.
 */

const ROOT = new URL('../', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, ROOT), 'utf8'));

interface LockedPackage {
  engines?: { node?: string } | string[];
}

describe('the Node versions the root package accepts', () => {
  const promised: string = readJson('package.json').engines.node;
  const locked = Object.entries(readJson('package-lock.json').packages as Record<string, LockedPackage>);

  it('are accepted by every locked package that names Node versions', () => {
    const refusing = locked.flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return range === undefined || semver.subset(promised, range) ? [] : [`${path || '(root)'}: ${range}`];
    });
    expect(refusing).toEqual([]);
  });

  it('are the ones the README and getting started name', () => {
    for (const page of ['README.md', 'docs/getting-started.md']) expect(readFileSync(new URL(page, ROOT), 'utf8'), page).toContain(`Node \`${promised}\``);
  });
});
