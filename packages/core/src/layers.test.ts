import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers of core, lowest first: a folder (or a file at the root of `src/`) may import from
 * its own layer and the ones below, never from a layer above, and no imports may go round in a
 * circle between folders. Each sub-folder of `features/` is a feature folder, with a layer of
 * its own below the assembly in `features/` that composes it. `docs/architecture.md` shows this
 * table; the last test keeps it equal.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'runtime', 'values', 'storage', 'records'],
  ['abi', 'chain', 'proxies', 'consensus'],
  ['events'],
  ['tokens', 'prices', 'indexer'],
  ['counters', 'auth'],
  ['services'],
  ['http', 'sockets', 'channels', 'coordination', 'metrics', 'logging', 'modules'],
  ['features/accounts', 'features/approvals', 'features/labels', 'features/prices', 'features/rate-limits', 'features/verification', 'features/webhooks'],
  ['explorer-services.ts', 'graphql'],
  ['api'],
  ['config-messages.ts', 'config.ts', 'features', 'explorer.ts', 'index.ts'],
];

/** The folders that carry requests and messages: the domain (every layer below them) never imports one. */
const TRANSPORT = ['http', 'sockets', 'channels', 'graphql', 'api'];

/** Packages for tests, benchmarks and `npm start` only: no published package's production code may import them. */
const DEV_PACKAGES = ['@chainlens/devchain', '@chainlens/testing'];

const SRC = dirname(fileURLToPath(import.meta.url));
const PACKAGES = resolve(SRC, '../..');
const ARCHITECTURE_DOC = resolve(SRC, '../../../docs/architecture.md');
const EXAMPLES = resolve(SRC, '../../../examples');

/** An import of one folder by another, with the file that makes it (for the failure message). */
interface FolderImport {
  from: string;
  to: string;
  file: string;
}

/** The feature folders: the sub-folders of `features/`, each named as `features/<name>`. */
const FEATURE_FOLDERS = readdirSync(join(SRC, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `features/${entry.name}`);

/**
 * The folder a file belongs to: its feature folder, else its top-level folder under `src/`, or
 * the file itself at the root (as its `.ts` source: imports name the `.js` they compile to).
 */
function folderOf(path: string): string {
  const [top, sub, file] = relative(SRC, path).split(sep);
  if (top === 'features' && file !== undefined) return `features/${sub}`;
  return top!.replace(/\.js$/, '.ts');
}

/** Every import a file names (type-only ones, re-exports and dynamic imports included). */
function importsOf(path: string): string[] {
  return ts.preProcessFile(readFileSync(path, 'utf8'), true, true).importedFiles.map(({ fileName }) => fileName);
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
    return importsOf(path)
      .filter((fileName) => fileName.startsWith('.'))
      .map((fileName) => ({ from: folderOf(path), to: folderOf(resolve(dirname(path), fileName)), file: `${file} → ${fileName}` }))
      .filter(({ from, to }) => from !== to);
  });
}

/** The production source files (no tests) of every published (not private) package, beside what each imports. */
function publishedImports(): { file: string; imports: string[] }[] {
  const packages = readdirSync(PACKAGES).filter((name) => {
    const manifest = join(PACKAGES, name, 'package.json');
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).private !== true;
  });
  return packages.flatMap((name) => {
    const src = join(PACKAGES, name, 'src');
    if (!existsSync(src)) return [];
    return readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|tsx|mts)$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => ({ file: `${name}/src/${file}`, imports: importsOf(join(src, file)) }));
  });
}

/**
 * Relative imports from one workspace package (`packages/*`, `examples/*`) into another's
 * `test/` folder, each as `importer → imported`: helpers tests share belong in `@chainlens/testing`.
 */
function crossPackageTestImports(): string[] {
  const roots = [PACKAGES, EXAMPLES].flatMap((parent) => readdirSync(parent).map((name) => join(parent, name)).filter((root) => existsSync(join(root, 'package.json'))));
  const packageOf = (path: string) => roots.find((root) => path.startsWith(`${root}${sep}`));
  return roots.flatMap((root) =>
    ['src', 'test']
      .map((folder) => join(root, folder))
      .filter((folder) => existsSync(folder))
      .flatMap((folder) => readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(ts|tsx|mts)$/.test(file)).map((file) => join(folder, file)))
      .flatMap((file) =>
        importsOf(file)
          .filter((name) => name.startsWith('.'))
          .map((name) => resolve(dirname(file), name))
          .filter((target) => packageOf(target) !== root && relative(packageOf(target) ?? target, target).split(sep)[0] === 'test')
          .map((target) => `${relative(resolve(PACKAGES, '..'), file)} → ${relative(resolve(PACKAGES, '..'), target)}`),
      ),
  );
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
    const folders = new Set([...readdirSync(SRC).filter((name) => !name.endsWith('.test.ts') && name !== '__snapshots__'), ...FEATURE_FOLDERS]);
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

  it('keeps the domain off transport: no folder below the transport ones imports one', () => {
    const lowest = Math.min(...TRANSPORT.map((folder) => layerOf.get(folder)!));
    const domainToTransport = imports.filter(({ from, to }) => layerOf.get(from)! < lowest && TRANSPORT.includes(to));
    expect(domainToTransport.map(({ from, to, file }) => `${from} → ${to} (${file})`)).toEqual([]);
    expect(TRANSPORT.filter((folder) => layerOf.get(folder)! < layerOf.get('services')!)).toEqual([]);
  });

  it('lets transport read through services: no transport folder imports Storage or one of its roles', () => {
    const roles = new Set(['Storage', ...readdirSync(join(SRC, 'storage/roles')).flatMap((file) => [...readFileSync(join(SRC, 'storage/roles', file), 'utf8').matchAll(/^export interface (\w+)/gm)].map(([, name]) => name!))]);
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && TRANSPORT.includes(folderOf(join(SRC, file))));
    const storageUsers = files.flatMap((file) =>
      [...readFileSync(join(SRC, file), 'utf8').matchAll(/import (?:type )?\{([^}]*)\} from '[^']*\/storage\/[^']*'/g)].flatMap(([, names]) =>
        names!
          .split(',')
          .map((name) => name.replace(/^\s*type\s+/, '').trim())
          .filter((name) => roles.has(name))
          .map((name) => `${file} imports ${name}`),
      ),
    );
    expect(roles.size).toBeGreaterThan(10);
    expect(storageUsers).toEqual([]);
  });

  it('keeps production code off the dev chain and the test suites', () => {
    const files = publishedImports();
    const devImports = files.flatMap(({ file, imports }) =>
      imports.filter((name) => DEV_PACKAGES.some((dev) => name === dev || name.startsWith(`${dev}/`)) || /(^|\/)devchain(\/|$)/.test(name)).map((name) => `${file} → ${name}`),
    );
    expect(files.some(({ file }) => file.startsWith('core/src/'))).toBe(true);
    expect(devImports).toEqual([]);
  });

  it("lets no package's code or tests import another package's test folder", () => {
    expect(crossPackageTestImports()).toEqual([]);
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
