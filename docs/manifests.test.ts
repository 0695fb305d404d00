import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every workspace package declares what it imports: its published code only what its
 * `dependencies` or `peerDependencies` bring (an app installing it gets nothing else), its tests
 * every other ChainLens package they load. The workspace hoists everything into one
 * `node_modules`, so an undeclared import works here and breaks only outside this repository.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WORKSPACES = ['packages', 'examples'].flatMap((dir) => readdirSync(join(ROOT, dir)).map((name) => join(ROOT, dir, name)));

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const builtins = new Set(builtinModules);
/** What runs only here: tests, test helpers and build scripts. */
const isDevOnly = (path: string) => /\.test\.tsx?$/.test(path) || /(^|\/)test\//.test(path) || /^(build\.mjs|tsup\.config\.ts)$/.test(path);
/** Packages that ship a browser bundle built at pack time: what their sources import is a build input. */
const BUNDLED = new Set(['@chainlens/ui']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null for a relative path or a Node builtin. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || builtins.has(specifier.split('/')[0]!)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** Bare packages a file imports at runtime or for types (static `import`/`export … from` and `import()`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/gm), ...text.matchAll(/^\s*import\s+'([^']+)'/gm), ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)];
  return found.map((match) => packageOf(match[1]!)).filter((name): name is string => name !== null);
}

describe('each workspace package declares what it imports', () => {
  for (const dir of WORKSPACES) {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    const published = new Set([manifest.name, ...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies })]);
    const declared = new Set([...published, ...Object.keys(manifest.devDependencies ?? {})]);
    const files = sources(dir);

    const shipped = files.filter((file) => !isDevOnly(relative(dir, file)));
    const devOnly = files.filter((file) => isDevOnly(relative(dir, file)));
    const undeclared = (list: string[], allowed: Set<string>, only: (name: string) => boolean) =>
      list.flatMap((file) => importsOf(file).filter((name) => only(name) && !allowed.has(name)).map((name) => `${relative(ROOT, file)}: ${name}`));

    if (BUNDLED.has(manifest.name)) {
      it(`${manifest.name}: its bundle's sources import only what it declares`, () => {
        expect(undeclared(shipped, declared, () => true)).toEqual([]);
      });
    } else {
      it(`${manifest.name}: its shipped code imports only its dependencies and peers`, () => {
        expect(undeclared(shipped, published, () => true)).toEqual([]);
      });
    }

    it(`${manifest.name}: its tests and build scripts declare every ChainLens package they load`, () => {
      expect(undeclared(devOnly, declared, (name) => name.startsWith('@chainlens/'))).toEqual([]);
    });
  }
});
