import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers of core, lowest first: a folder (or a file at the root of `src/`) may import from
 * its own layer and the ones below, never from a layer above, and no imports may go round in a
 * circle between folders. `docs/architecture.md` shows this table; the last test keeps it equal.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'runtime', 'storage'],
  ['abi', 'chain', 'contracts', 'consensus'],
  ['events'],
  ['tokens', 'prices', 'indexer'],
  ['limits', 'auth', 'http'],
  ['verification', 'services'],
  ['sockets', 'channels', 'graphql', 'coordination', 'metrics', 'logging', 'webhooks'],
  ['api'],
  ['config-messages.ts', 'config.ts', 'explorer.ts', 'index.ts'],
];

const SRC = dirname(fileURLToPath(import.meta.url));
const ARCHITECTURE_DOC = resolve(SRC, '../../../docs/architecture.md');

/** An import of one folder by another, with the file that makes it (for the failure message). */
interface FolderImport {
  from: string;
  to: string;
  file: string;
}

/**
 * The folder a file belongs to: its top-level folder under `src/`, or the file itself at the root
 * (as its `.ts` source: imports name the `.js` they compile to).
 */
function folderOf(path: string): string {
  return relative(SRC, path).split(sep)[0]!.replace(/\.js$/, '.ts');
}

/**
 * Every relative import between two folders, type-only ones, re-exports and dynamic imports
 * included (each couples the folders as much as a value import). Tests are left out: a test
 * sits beside what it tests but may drive it through the whole explorer.
 */
function folderImports(): FolderImport[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
  return files.flatMap((file) => {
    const path = join(SRC, file);
    const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    return importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => ({ from: folderOf(path), to: folderOf(resolve(dirname(path), fileName)), file: `${file} → ${fileName}` }))
      .filter(({ from, to }) => from !== to);
  });
}

/** Circles in a graph of folders, each as the folders met on the way round (the first repeated at the end). */
function findCircles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) next.set(from, (next.get(from) ?? new Set()).add(to));
  const circles: string[][] = [];
  const done = new Set<string>();
  const walk = (node: string, path: string[]): void => {
    const at = path.indexOf(node);
    if (at !== -1) return void circles.push([...path.slice(at), node]);
    if (done.has(node)) return;
    for (const to of next.get(node) ?? []) walk(to, [...path, node]);
    done.add(node);
  };
  for (const node of next.keys()) walk(node, []);
  return circles;
}

const layerOf = new Map(LAYERS.flatMap((folders, layer) => folders.map((folder) => [folder, layer] as const)));

describe('the layers of core', () => {
  const imports = folderImports();

  it('gives every folder of src/ a layer', () => {
    const folders = new Set(readdirSync(SRC).filter((name) => !name.endsWith('.test.ts') && name !== '__snapshots__'));
    expect([...folders].filter((folder) => !layerOf.has(folder))).toEqual([]);
    expect([...layerOf.keys()].filter((folder) => !folders.has(folder))).toEqual([]);
  });

  it('knows the layer of everything an import names, root files included', () => {
    const unplaced = imports.flatMap(({ from, to, file }) => [from, to].filter((folder) => !layerOf.has(folder)).map((folder) => `${folder} (${file})`));
    expect(unplaced).toEqual([]);
  });

  it('lets no folder import from a layer above its own', () => {
    const upward = imports.filter(({ from, to }) => layerOf.get(to)! > layerOf.get(from)!);
    expect(upward.map(({ from, to, file }) => `${from} → ${to} (${file})`)).toEqual([]);
  });

  it('has no import circle between folders', () => {
    const circles = findCircles(imports).map((circle) =>
      circle
        .slice(1)
        .map((to, i) => `${circle[i]} → ${to} (${imports.find((edge) => edge.from === circle[i] && edge.to === to)!.file})`)
        .join(', '),
    );
    expect(circles).toEqual([]);
  });

  it('finds a circle however many folders it passes through', () => {
    const edges = [
      { from: 'services', to: 'events' },
      { from: 'events', to: 'storage' },
      { from: 'channels', to: 'services' },
      { from: 'events', to: 'channels' },
    ];
    expect(findCircles(edges)).toEqual([['services', 'events', 'channels', 'services']]);
    expect(findCircles(edges.slice(0, 3))).toEqual([]);
  });

  it('is the table docs/architecture.md shows', () => {
    // Rows of the doc's layer table: `| 3 | `events` | … |`.
    const rows = [...readFileSync(ARCHITECTURE_DOC, 'utf8').matchAll(/^\| (\d+) \| ([^|]+) \|/gm)];
    const documented = rows.map(([, , folders]) => [...folders!.matchAll(/`([^`]+)`/g)].map(([, folder]) => folder!.replace(/\/$/, '')));
    expect(documented).toEqual(LAYERS);
  });
});
