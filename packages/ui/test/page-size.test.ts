import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { UI_DIST } from '../build.mjs';

/** The page's budget: everything it loads, gzipped as a server would send it. */
const BUDGET_BYTES = 150_000;

it('the built page (script and style sheet) stays under 150 KB gzipped', async () => {
  // The suite's global setup built dist/; files starting with '.' are another build's half-written files.
  const names = (await readdir(UI_DIST)).filter((name) => !name.startsWith('.'));
  expect(names).toEqual(expect.arrayContaining(['app.css', 'app.js']));
  const sizes = await Promise.all(names.map(async (name) => gzipSync(await readFile(join(UI_DIST, name)), { level: 9 }).byteLength));
  expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(BUDGET_BYTES);
});
