import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The feature folders: each folder under `features/` (`features/webhooks/` is the worked example). */
const FEATURE_FOLDERS = [...readdirSync(join(SRC, 'features')).filter((name) => statSync(join(SRC, 'features', name)).isDirectory()).map((name) => `features/${name}`)];

/** What joins a feature to the explorer: its index, its module (`createExplorer` registers it) and its config slice (`config.ts` names it). */
const isEntryPoint = (file: string): boolean => /(^|\/)(index|[\w-]+-module|[\w-]+-config)\.ts$/.test(file);

/** Every relative import of core's production files, as the importing file and the file imported (both relative to `src/`). */
function imports(): { from: string; to: string }[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
  return files.flatMap((file) =>
    ts
      .preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true)
      .importedFiles.map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => ({ from: file, to: relative(SRC, resolve(SRC, dirname(file), name)).replace(/\.js$/, '.ts') })),
  );
}

describe('features as folders', () => {
  const all = imports();

  it.each(FEATURE_FOLDERS)('%s is reached from outside only through its index, its module and its config slice', (folder) => {
    const inside = (file: string) => file.startsWith(`${folder}/`);
    const fromOutside = all.filter(({ from, to }) => inside(to) && !inside(from));
    expect(fromOutside.map(({ from }) => from)).toContain('explorer.ts');
    expect(fromOutside.filter(({ to }) => !isEntryPoint(to))).toEqual([]);
  });

  it.each(FEATURE_FOLDERS)('%s has an index.ts, its way in for the rest of core and the public exports', (folder) => {
    expect(existsSync(join(SRC, folder, 'index.ts'))).toBe(true);
  });

  it('finds the feature folders', () => {
    expect(FEATURE_FOLDERS).toEqual(expect.arrayContaining(['features/webhooks', 'features/accounts', 'features/approvals', 'features/labels', 'features/prices', 'features/rate-limits', 'features/verification']));
  });
});
