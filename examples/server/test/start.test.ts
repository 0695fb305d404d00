import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildIfStale, buildInputs, isStale, uiBuildInputs } from '../build-if-stale.mjs';
import { testDatabaseUrl, testSchemas, waitFor, withClient } from '@chainlens/testing';

/** `npm start`: the launcher that runs the built server. */
const START = fileURLToPath(new URL('../start.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Between polls of the API: at most 72 requests in the test's longest minute, under npm start's 100 for anonymous clients. */
const POLL_MS = 1_000;
const started: ChildProcess[] = [];
const schemas = testSchemas();

// Builds what a fresh clone lacks (or what changed since the last build) once, before the tests
// start servers, so no test's wait includes a build.
beforeAll(() => buildIfStale(), 180_000);

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function startServer(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [START], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start (examples/server)', () => {
  it('builds again exactly when a source, a manifest or the lock file is newer than the built server', async () => {
    const root = await mkdtemp(join(tmpdir(), 'chainlens-start-'));
    try {
      for (const dir of ['packages/core/src/api', 'examples/server/dist']) await mkdir(join(root, dir), { recursive: true });
      const source = join(root, 'packages/core/src/api/route.ts');
      const manifest = join(root, 'packages/core/package.json');
      const built = join(root, 'examples/server/dist/main.js');
      const lock = join(root, 'package-lock.json');
      for (const file of [source, manifest, lock]) await writeFile(file, '');
      const at = (file: string, seconds: number) => utimes(file, seconds, seconds);
      for (const dir of [root, join(root, 'packages'), join(root, 'packages/core'), join(root, 'packages/core/src'), join(root, 'packages/core/src/api')]) await at(dir, 1_000);
      for (const file of [source, manifest, lock]) await at(file, 1_000);
      expect(isStale(built, buildInputs(root))).toBe(true);
      await writeFile(built, '');
      await at(built, 2_000);
      expect(isStale(built, buildInputs(root))).toBe(false);
      await at(source, 3_000);
      expect(isStale(built, buildInputs(root))).toBe(true);
      await at(source, 1_000);
      await at(manifest, 3_000);
      expect(isStale(built, buildInputs(root))).toBe(true);
      await at(manifest, 1_000);
      await at(lock, 3_000);
      expect(isStale(built, buildInputs(root))).toBe(true);
      await at(lock, 1_000);

      // The explorer page is built apart: its sources make it stale, not the server.
      const page = join(root, 'packages/ui/src/app.tsx');
      const pageBuilt = join(root, 'packages/ui/dist/app.js');
      await mkdir(join(root, 'packages/ui/src'), { recursive: true });
      await mkdir(join(root, 'packages/ui/dist'), { recursive: true });
      await writeFile(page, '');
      await writeFile(pageBuilt, '');
      for (const path of [join(root, 'packages/ui'), join(root, 'packages/ui/src'), page]) await at(path, 1_000);
      await at(pageBuilt, 2_000);
      expect(isStale(pageBuilt, uiBuildInputs(root))).toBe(false);
      await at(page, 3_000);
      expect(isStale(pageBuilt, uiBuildInputs(root))).toBe(true);
      expect(isStale(built, buildInputs(root))).toBe(false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it.each(['fastify', 'express'])('serves the embedded dev chain through %s, indexes ongoing activity and stops cleanly on SIGTERM', async (adapter) => {
    const { child, output } = startServer({ PORT: '0', EXPLORER_ADAPTER: adapter });
    const url = await waitFor(() => /ChainLens listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1], 'the listening line');
    // What runs where, in lines a person reads: the storage and the demo contracts by role.
    expect(output()).toContain('ChainLens storage: memory (kept in this process; gone when it stops)\n');
    expect(output()).toMatch(/ChainLens demo contracts: DEMO token \(ERC-20\) 0x[0-9a-fA-F]{40}, DUSD token \(ERC-20\) 0x[0-9a-fA-F]{40}, NFT \(ERC-721\) 0x[0-9a-fA-F]{40}, multi-token \(ERC-1155\) 0x/);
    // Where to go first, then the line tools wait for.
    expect(output()).toContain(`ChainLens explorer: ${url}/\nChainLens API reference: ${url}/docs\nChainLens GraphiQL: ${url}/graphql\nChainLens listening on ${url}\n`);
    // stdout is a pipe here, not a terminal: the logs are JSON lines (the random JWT secret's warning, at least).
    const logs = output().split('\n').filter((line) => line !== '' && !line.startsWith('ChainLens '));
    expect(logs.map((line) => JSON.parse(line) as { msg: string }).some((entry) => entry.msg.includes('jwtSecret'))).toBe(true);
    // The printed address is the explorer page, its script served beside it.
    const page = await fetch(`${url}/`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<script type="module" src="assets/app.js"></script>');
    expect((await fetch(`${url}/assets/app.js`)).status).toBe(200);
    const response = await fetch(`${url}/api/v1/health`);
    expect(await response.json()).toMatchObject({ status: '1', result: { status: 'ok', chainId: 31337 } });
    // Idle connections are kept past a load balancer's usual 60 s, not Node's 5 s.
    expect(response.headers.get('keep-alive')).toBe('timeout=72');

    // The channel protocol at ws://HOST:PORT/ws, through either adapter.
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
    const frames: { event?: string; channel?: string }[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(data.toString())));
    await once(socket, 'open');
    socket.send(JSON.stringify({ event: 'subscribe', channel: 'blocks' }));
    await waitFor(() => frames.some((m) => m.channel === 'blocks' && m.event === undefined), 'a block on the blocks channel', 20_000);
    expect(frames[0]).toEqual({ event: 'subscribed', channel: 'blocks' });
    socket.terminate();

    // npm start limits anonymous clients to 100 requests a minute: these polls stay well within it
    // (a refused poll throws, which counts as not yet).
    const read = async <T>(path: string): Promise<T> => {
      const answer = await fetch(`${url}${path}`);
      if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
      return ((await answer.json()) as { result: T }).result;
    };
    // What the one-file build must still find at run time: GraphQL (one copy of graphql among its
    // bundled users) and the API reference's and GraphiQL's assets, read from their npm packages.
    const graphql = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ blockchain { latestBlock { number } } }' }) });
    expect(((await graphql.json()) as { data: { blockchain: { latestBlock: { number: string } } } }).data.blockchain.latestBlock.number).toMatch(/^\d+$/);
    for (const asset of ['docs/swagger-ui-bundle.js', 'graphql/graphiql.min.js', 'graphql/react-dom.production.min.js']) {
      const bundle = await fetch(`${url}/${asset}`);
      expect([bundle.status, (await bundle.text()).length > 100_000], asset).toEqual([200, true]);
    }
    const stats = async () => (await read<{ totalTransactions: number }>('/api/v1/blockchain/network/stats')).totalTransactions;
    const before = await stats();
    await waitFor(async () => (await stats()) > before, 'ongoing demo transactions to be indexed', 20_000, POLL_MS);

    // The demo's DEX pool prices DEMO, and the activity's swaps move that price.
    const demoPrice = async () => (await read<{ symbol: string; priceUSD: string | null }[]>('/api/v1/token/list?sort=marketCap')).find((t) => t.symbol === 'DEMO')?.priceUSD ?? null;
    const first = await waitFor(demoPrice, 'a price of DEMO', 20_000, POLL_MS);
    await waitFor(async () => ((await demoPrice()) !== first ? true : null), 'the price of DEMO to move', 30_000, POLL_MS);

    const anvil = childPids(child.pid!);
    expect(anvil.length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    await waitFor(() => anvil.every((pid) => !alive(pid)), 'anvil to stop', 15_000);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('ends npm, node and anvil and closes the port when npm start gets %s', async (signal) => {
    // The PID a supervisor holds is npm's: it must pass the signal on to the server, which ends the rest.
    const npm = spawn('npm', ['start', '--silent'], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(npm);
    let output = '';
    for (const stream of [npm.stdout!, npm.stderr!]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = await waitFor(() => /ChainLens listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], 'the listening line');
    const descendants = (pid: number): number[] => childPids(pid).flatMap((child) => [child, ...descendants(child)]);
    const chain = descendants(npm.pid!);
    // node, and anvil under it.
    expect(chain.length).toBeGreaterThanOrEqual(2);
    npm.kill(signal);
    await once(npm, 'exit');
    await waitFor(() => chain.every((pid) => !alive(pid)), 'node and anvil to end', 10_000);
    await expect(fetch(`${url}/api/v1/health`)).rejects.toThrow();
  });

  it('refuses an invalid environment with a message naming the variable', async () => {
    const { child, output } = startServer({ PORT: 'eighty', EXPLORER_RPC_URL: 'http://127.0.0.1:1' });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(output()).toContain('Invalid environment: PORT: must be a port number');
  });

  it('refuses a JWT secret shorter than 32 bytes', async () => {
    const { child, output } = startServer({ EXPLORER_JWT_SECRET: 'too-short', EXPLORER_RPC_URL: 'http://127.0.0.1:1' });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(output()).toContain('Invalid environment: EXPLORER_JWT_SECRET: must be at least 32 bytes');
  });

  it('refuses a price quote token without the DEXes to read it from', async () => {
    const { child, output } = startServer({ EXPLORER_RPC_URL: 'http://127.0.0.1:1', EXPLORER_PRICE_QUOTE_TOKEN: `0x${'11'.repeat(20)}` });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(output()).toContain('Invalid environment: EXPLORER_PRICE_DEXES: EXPLORER_PRICE_QUOTE_TOKEN and EXPLORER_PRICE_DEXES must be set together');
  });

  it('stores in Postgres when DATABASE_URL is set, with the tiers the environment sets', async () => {
    const schema = schemas.next();
    const database = new URL(await testDatabaseUrl());
    const { child, output } = startServer({ PORT: '0', DATABASE_URL: database.href, EXPLORER_DB_SCHEMA: schema, EXPLORER_RATE_LIMITS_ANONYMOUS: '500/50000' });
    const url = await waitFor(() => /ChainLens listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1], 'the listening line');
    // Where the data goes, without the credentials.
    expect(output()).toContain(`ChainLens storage: Postgres at ${database.host}${database.pathname}, schema ${schema}\n`);
    if (database.password) expect(output()).not.toContain(database.password);
    const indexed = await waitFor(async () => {
      const rows = await withClient((client) => client.query(`SELECT count(*)::int AS n FROM ${schema}.blocks`)).catch(() => null);
      return rows && rows.rows[0].n > 0 ? (rows.rows[0].n as number) : null;
    }, 'blocks in Postgres');
    const answer = await fetch(`${url}/api/v1/block/getblock?blockno=latest`);
    // The anonymous tier from the environment.
    expect(answer.headers.get('x-ratelimit-limit')).toBe('500');
    const latest = (await answer.json()) as { status: string; result: { blockNumber: string } };
    expect(latest.status).toBe('1');
    expect(Number(latest.result.blockNumber)).toBeGreaterThanOrEqual(indexed - 1);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('refuses a DATABASE_URL that is not a postgres:// URL', async () => {
    const { child, output } = startServer({ PORT: '0', DATABASE_URL: 'mysql://127.0.0.1/test' });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(output()).toContain('Invalid environment: DATABASE_URL: must be a postgres:// URL');
  });
});
