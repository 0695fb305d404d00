// Builds the explorer page into dist/ (app.js and app.css, which @chainlens/core serves). Plain
// JavaScript, so it runs before anything is built: `npm run build -w @chainlens/ui`, the test
// suite's global setup and `npm start`'s launcher all call it.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PACKAGE = fileURLToPath(new URL('.', import.meta.url));

/** The folder the page is built into. */
export const UI_DIST = join(PACKAGE, 'dist');

/**
 * Bundles `src/main.tsx` (Preact, minified, with its CSS) into `outdir`. Each file is written
 * under a temporary name and renamed into place, so a server reading the folder while another
 * build runs never sees half a file.
 * @param {{ outdir?: string }} [options]
 * @returns {Promise<{ files: Record<string, number> }>} the bytes of each file written
 */
export async function buildUi(options = {}) {
  const outdir = options.outdir ?? UI_DIST;
  const result = await build({
    entryPoints: { app: join(PACKAGE, 'src/main.tsx') },
    bundle: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir,
    write: false,
    logLevel: 'silent',
  });
  await mkdir(outdir, { recursive: true });
  /** @type {Record<string, number>} */
  const files = {};
  for (const file of result.outputFiles) {
    const name = basename(file.path);
    const temporary = join(outdir, `.${name}.${process.pid}.${Date.now()}.tmp`);
    await writeFile(temporary, file.contents);
    await rename(temporary, join(outdir, name));
    files[name] = file.contents.byteLength;
  }
  return { files };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { files } = await buildUi();
  for (const [name, bytes] of Object.entries(files)) console.error(`@chainlens/ui: dist/${name} ${(bytes / 1024).toFixed(1)} KiB`);
}
