import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Ignored by git (`.cache/`); inside the repository, so the compiled scripts find its node_modules. */
const OUT_DIR = join(REPO_ROOT, '.cache', 'bench');
/** A relative module specifier of an import or export (`'./listen.js'`, `import('./x.js')`). */
const RELATIVE_SPECIFIER = /(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)\.js['"]/g;

const compiled = new Map<string, string>();

/**
 * Compiles a bench script (a path from the repository root, `bench/servers/chainlens.ts`) and the
 * bench modules it imports, transitively, to plain JavaScript under `.cache/bench/`, and returns
 * the compiled script's path. A server process then runs on Node alone, as a user's server does
 * (`npm start` runs `node` on JavaScript): under tsx's loader it also held the transformed text
 * and source maps of every module it loaded, about 10 MB of heap no user's process has. The
 * packages it imports are the built `dist/` either way.
 */
export function compiledScript(script: string): string {
  const source = resolve(REPO_ROOT, script);
  const known = compiled.get(source);
  if (known !== undefined) return known;
  const out = join(OUT_DIR, relative(join(REPO_ROOT, 'bench'), source)).replace(/\.ts$/, '.js');
  compiled.set(source, out);
  const text = readFileSync(source, 'utf8');
  const { outputText } = ts.transpileModule(text, {
    fileName: source,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, outputText);
  for (const [, specifier] of text.matchAll(RELATIVE_SPECIFIER)) compiledScript(relative(REPO_ROOT, resolve(dirname(source), `${specifier}.ts`)));
  return out;
}
