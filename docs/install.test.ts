import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestChain, findFreePort, type TestChain } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A team's first install, as the README tells it: every published package built and packed from
 * this repository (a fresh clone needs no build first), installed into a
 * new app outside the repository with only the packages the README names, and the README's own
 * snippets run there as written, pointed at a real chain.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
/** The packages a team installs; the others of the workspace are this repository's own. */
const PUBLISHED = ['core', 'ui', 'storage-memory', 'storage-postgres', 'adapter-fastify', 'adapter-express'];
const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
const promisedNode: string = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).engines.node;

/** The first fenced block of the README after the line that starts with `label` (e.g. `Fastify`). */
function snippetAfter(label: string): string {
  const at = readme.search(new RegExp(`^${label}`, 'm'));
  const block = at === -1 ? null : /^```\w+[^\n]*\n([\s\S]*?)^```$/m.exec(readme.slice(at));
  if (!block) throw new Error(`the README has no code block after "${label}"`);
  return block[1]!;
}

/** The packages the README's "Install into your app" section tells to install: each `npm install` line of its shell blocks. */
function documentedInstalls(): { save: string[]; dev: string[] } {
  const section = /^## Install into your app\n([\s\S]*?)^## /m.exec(readme)![1]!;
  const lines = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(([, block]) => block).join('');
  const packages = (dev: boolean) =>
    [...lines.matchAll(/^npm install (.+)$/gm)]
      .filter(([, args]) => args!.includes('--save-dev') === dev)
      .flatMap(([, args]) => args!.replace(/#.*/, '').split(/\s+/).filter((word) => word && !word.startsWith('-')));
  return { save: packages(false), dev: packages(true) };
}

interface Manifest {
  name?: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

describe('the published packages, installed into a new app as the README says', () => {
  let chain: TestChain;
  let app: string;
  let tarballs: Map<string, { file: string; size: number; unpackedSize: number; files: string[] }>;
  let installLog: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    chain = await createTestChain();
    app = await mkdtemp(join(tmpdir(), 'chainlens-app-'));
    // What each package's prepack does, core (whose types the others read) first, the rest side by side.
    const build = (names: string[]) => Promise.all(names.map((name) => run('npm', ['run', 'build', '--silent', '--workspace', `packages/${name}`], { cwd: ROOT })));
    await build(['core', 'ui']);
    await build(PUBLISHED.filter((name) => name !== 'core' && name !== 'ui'));
    const packed = JSON.parse(
      (await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', app, ...PUBLISHED.flatMap((name) => ['--workspace', `packages/${name}`])], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })).stdout,
    ) as { name: string; filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
    tarballs = new Map(packed.map((entry) => [entry.name, { file: join(app, entry.filename), size: entry.size, unpackedSize: entry.unpackedSize, files: entry.files.map((file) => file.path) }]));
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'my-app', private: true, type: 'module' }));
    // From the tarballs what the registry would give; @chainlens/ui too, which core brings along.
    const local = (name: string) => tarballs.get(name)?.file ?? name;
    const { save, dev } = documentedInstalls();
    const npm = (args: string[]) => run('npm', [...args, '--engine-strict', '--no-audit', '--no-fund', '--loglevel', 'warn'], { cwd: app });
    const saved = await npm(['install', ...save.map(local), tarballs.get('@chainlens/ui')!.file]);
    const developed = await npm(['install', '--save-dev', ...dev]);
    installLog = saved.stderr + developed.stderr;
  }, 900_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await chain?.close();
    if (app) await rm(app, { recursive: true, force: true });
  });

  it('installs with no engine warning, and every installed package accepts every Node version ChainLens promises', async () => {
    expect(installLog).not.toContain('EBADENGINE');
    const refusing: string[] = [];
    const needTypescript: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        if (!entry.isDirectory() || entry.name === '.bin') continue;
        const path = join(dir, entry.name);
        if (entry.name.startsWith('@')) {
          await walk(path);
          continue;
        }
        const manifest = JSON.parse(await readFile(join(path, 'package.json'), 'utf8').catch(() => '{}')) as Manifest;
        const range = manifest.engines?.node;
        if (range && !semver.subset(promisedNode, range)) refusing.push(`${manifest.name}: ${range}`);
        const peer = manifest.peerDependencies?.typescript !== undefined && !manifest.peerDependenciesMeta?.typescript?.optional;
        if (manifest.dependencies?.typescript || peer) needTypescript.push(manifest.name!);
        await walk(join(path, 'node_modules'));
      }
    };
    await walk(join(app, 'node_modules'));
    expect(refusing).toEqual([]);
    // Verification's compiler, the dev chain and the test suites stay out of what the app runs on,
    // and nothing it runs needs TypeScript (viem's peer on it is optional).
    const production = (await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: app, maxBuffer: 16 * 1024 * 1024 })).stdout;
    const names = new Set(production.split('\n').map((path) => path.split('node_modules/').at(-1)));
    expect(['solc', '@ethereum-sourcify/lib-sourcify', '@foundry-rs/anvil', '@chainlens/testing', '@chainlens/devchain', 'vitest'].filter((name) => names.has(name))).toEqual([]);
    expect(needTypescript).toEqual([]);
  });

  it('packs no source maps, tests or sources, only the build, the README and the LICENSE', () => {
    for (const [name, tarball] of tarballs) {
      const unexpected = tarball.files.filter((file) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file) || file.endsWith('.map') || file.includes('test'));
      expect(unexpected, name).toEqual([]);
      expect(tarball.files, name).toEqual(expect.arrayContaining(['README.md', 'LICENSE']));
    }
  });

  it('runs the README imports as ES modules and as CommonJS', async () => {
    const exported = { '@chainlens/core': 'createExplorer', '@chainlens/storage-memory': 'memoryStorage', '@chainlens/storage-postgres': 'postgresStorage', '@chainlens/adapter-fastify': 'chainlens', '@chainlens/adapter-express': 'chainlensRouter' };
    const esm = Object.entries(exported).map(([module, name]) => `import { ${name} } from '${module}'; if (typeof ${name} !== 'function') throw new Error('${module}');`).join('\n');
    const cjs = Object.entries(exported).map(([module, name]) => `if (typeof require('${module}').${name} !== 'function') throw new Error('${module}');`).join('\n');
    await writeFile(join(app, 'imports.mjs'), esm);
    await writeFile(join(app, 'imports.cjs'), cjs);
    await run(process.execPath, ['imports.mjs'], { cwd: app });
    await run(process.execPath, ['imports.cjs'], { cwd: app });
  });

  it('typechecks the Express snippet under strict and nodenext with the documented installs', async () => {
    await writeFile(join(app, 'express-app.ts'), snippetAfter('Express'));
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true }, files: ['express-app.ts'] }));
    const typecheck = await run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', app], { cwd: app }).catch((error: { stdout: string }) => error);
    expect(typecheck.stdout).toBe('');
  });

  it('serves health, an indexed transaction and the explorer page, with and without the slash, from the Fastify snippet', async () => {
    const port = await findFreePort();
    // As written, but for the addresses: this machine's chain and a free port.
    const source = snippetAfter('Fastify').replace('http://127.0.0.1:8545', chain.rpcUrl).replace('port: 8080', `port: ${port}, host: '127.0.0.1'`);
    expect(source).toContain(chain.rpcUrl);
    await writeFile(join(app, 'fastify-app.mjs'), source);
    const server = spawn(process.execPath, ['fastify-app.mjs'], { cwd: app, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(server);
    let errors = '';
    server.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const base = `http://127.0.0.1:${port}/explorer`;
    const health = await waitFor(async () => {
      if (server.exitCode !== null) throw new Error(`the app exited: ${errors}`);
      const answer = await fetch(`${base}/api/v1/health`).catch(() => null);
      return answer?.status === 200 ? ((await answer.json()) as { result: { chainId: number } }) : null;
    }, 'the app to answer /explorer/api/v1/health');
    expect(health.result.chainId).toBe(31337);

    const hash = await chain.walletClient.sendTransaction({ to: chain.accounts[1]!.address, value: 7n });
    const transaction = await waitFor(async () => {
      const answer = await fetch(`${base}/api/v1/transaction/${hash}`);
      return answer.status === 200 ? ((await answer.json()) as { result: { hash: string; value: string } }).result : null;
    }, 'the transaction to be indexed');
    expect(transaction).toMatchObject({ hash, value: '7' });

    for (const page of [base, `${base}/`]) {
      const answer = await fetch(page);
      expect([answer.url, answer.headers.get('content-type')], page).toEqual([`${base}/`, 'text/html; charset=utf-8']);
      const script = /<script type="module" src="([^"]+)"/.exec(await answer.text())?.[1];
      const loaded = await fetch(new URL(script!, answer.url));
      expect([loaded.status, loaded.headers.get('content-type'), (await loaded.text()).length > 10_000], page).toEqual([200, 'text/javascript; charset=utf-8', true]);
    }

    // Without the optional solc and lib-sourcify, a verification request says how to enable it.
    const json = (body: unknown, headers: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const user = { email: 'someone@example.com', password: 'a long enough passphrase' };
    expect((await fetch(`${base}/api/v1/auth/register`, json({ ...user, name: 'Someone' }))).status).toBe(200);
    const login = (await (await fetch(`${base}/api/v1/auth/login`, json(user))).json()) as { result: { access_token: string } };
    const verify = await fetch(
      `${base}/api/v1/contract/verify`,
      json({ address: chain.accounts[1]!.address, sourceCode: 'contract A {}', compiler: 'v0.8.37+commit.f401782d', contractName: 'A' }, { authorization: `Bearer ${login.result.access_token}` }),
    );
    expect([verify.status, ((await verify.json()) as { message: string }).message]).toEqual([
      400,
      'Error! Compiler version not available: solc is not installed: contract verification needs the optional packages solc and @ethereum-sourcify/lib-sourcify (npm install solc @ethereum-sourcify/lib-sourcify)',
    ]);
    server.kill('SIGTERM');
  });
});
