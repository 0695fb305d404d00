import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { explorerConfigSchema } from '@chainlens/core';

/**
 * The README and the pages beside this file stay true to the repository: every relative link
 * leads somewhere, and every code block fenced as ```ts typecheck still compiles against the
 * workspace's packages (their sources, as the tests use them).
 */

const DOCS = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(DOCS, '..');
/** Where the blocks are written to be compiled: inside the repository, so `@chainlens/*` resolve; ignored by git. */
const BLOCKS_DIR = join(DOCS, '.cache', 'typecheck');
const TYPECHECK_FENCE = /^```ts typecheck\n([\s\S]*?)^```$/gm;

const pages = ['README.md', ...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/** The text outside fenced and inline code, where a `[text](target)` is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const headings = markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm);
  return new Set([...headings].map(([, heading]) => anchorOf(heading!)));
}

/** The relative links of `page` (a path from the repository root, given its text) that lead nowhere. */
function brokenLinks(page: string, markdown: string, readPage: (path: string) => string | null): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!)) continue; // http:, https:, mailto:
    const [path, anchor] = target!.split('#') as [string, string | undefined];
    const file = path === '' ? page : relative(ROOT, resolve(ROOT, dirname(page), path));
    const text = file.endsWith('.md') ? readPage(file) : null;
    if (text === null && !existsSync(join(ROOT, file))) broken.push(`${page}: ${target} (no ${file})`);
    else if (anchor !== undefined && text !== null && !anchorsOf(text).has(anchor)) broken.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
  }
  return broken;
}

/** Compiles `blocks` (name → source) with the repository's compiler options; the errors, per block. */
function typeErrors(blocks: Map<string, string>): Map<string, string[]> {
  rmSync(BLOCKS_DIR, { recursive: true, force: true });
  mkdirSync(BLOCKS_DIR, { recursive: true });
  const files = [...blocks].map(([name, source]) => {
    const file = join(BLOCKS_DIR, `${name.replace(/[^\w-]/g, '_')}.ts`);
    writeFileSync(file, source);
    return [name, file] as const;
  });
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = ts.createProgram(
    files.map(([, file]) => file),
    config.options,
  );
  return new Map(
    files.map(([name, file]) => [
      name,
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => {
        const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!);
        return `line ${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      }),
    ]),
  );
}

/** The dotted paths of a zod schema's options, down to objects nested three deep (defaults, prefaults and transforms looked through). */
function optionPaths(schema: unknown, path: string[] = []): string[] {
  let inner = schema as { _zod: { def: { type: string; innerType?: unknown; in?: unknown; shape?: Record<string, unknown> } } };
  for (;;) {
    const { def } = inner._zod;
    if (def.innerType) inner = def.innerType as typeof inner;
    else if (def.type === 'pipe') inner = def.in as typeof inner;
    else break;
  }
  const { def } = inner._zod;
  if (def.type !== 'object' || path.length === 3) return [path.join('.')];
  return Object.entries(def.shape!).flatMap(([key, value]) => optionPaths(value, [...path, key]));
}

/** The options the first cells of a markdown table name: `` `a.b` / `c` `` names a.b and a.c. */
function tableOptions(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const [, cell] of markdown.matchAll(/^\| ([^|]+) \|/gm)) {
    let prefix = '';
    for (const [, name] of cell!.matchAll(/`([\w.]+)`/g)) {
      if (name!.includes('.')) prefix = name!.slice(0, name!.lastIndexOf('.') + 1);
      names.add(name!.includes('.') ? name! : prefix + name!);
    }
  }
  return names;
}

describe('the README and docs/', () => {
  it('give the two commands CI and a fresh clone rely on', () => {
    expect(read('README.md')).toContain('npm install && npm start');
    expect(read('README.md')).toContain('npm test ');
  });

  it('link only to files and headings that exist', () => {
    const readPage = (path: string) => (existsSync(join(ROOT, path)) ? read(path) : null);
    expect(pages.flatMap((page) => brokenLinks(page, read(page), readPage))).toEqual([]);
  });

  it('are each linked from the README, so a newcomer finds every page from the front door', () => {
    const linked = new Set([...prose(read('README.md')).matchAll(/\]\((docs\/[^)#\s]+\.md)/g)].map(([, target]) => target));
    expect(pages.filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([]);
  });

  it('document every option of createExplorer in the configuration table of embedding.md', () => {
    const documented = tableOptions(read('docs/embedding.md'));
    const covered = (path: string) => path.split('.').some((_, i, parts) => documented.has(parts.slice(0, i + 1).join('.')));
    const options = optionPaths(explorerConfigSchema);
    expect(options.length).toBeGreaterThan(50);
    expect(options.filter((path) => !covered(path))).toEqual([]);
    expect(tableOptions('| `a.b` / `c` | x |\n| `d` | y |')).toEqual(new Set(['a.b', 'a.c', 'd']));
  });

  it('would report a link to a missing file or heading', () => {
    const readPage = (path: string) => (path === 'docs/a.md' ? '# A page\n\n## Its part\n' : null);
    const markdown = '[ok](a.md#its-part) [no file](b.md) [no heading](a.md#other) `[code](c.md)` [web](https://x.org/y)';
    expect(brokenLinks('docs/here.md', markdown, readPage)).toEqual(['docs/here.md: b.md (no docs/b.md)', 'docs/here.md: a.md#other (no heading #other in docs/a.md)']);
  });

  it('hold ts typecheck blocks that compile, and a block that no longer compiles is reported', () => {
    const blocks = new Map(pages.flatMap((page) => [...read(page).matchAll(TYPECHECK_FENCE)].map(([, source], i) => [`${page} block ${i + 1}`, source!] as const)));
    expect(blocks.size).toBeGreaterThanOrEqual(4);
    const stale = `import { createExplorer } from '@chainlens/core';\nawait createExplorer({ rpcUrl: 'http://127.0.0.1:8545', storge: null });\n`;
    const errors = typeErrors(new Map([...blocks, ['stale block', stale]]));
    expect(errors.get('stale block')).not.toEqual([]);
    errors.delete('stale block');
    expect(Object.fromEntries([...errors].filter(([, messages]) => messages.length > 0))).toEqual({});
  });
});
