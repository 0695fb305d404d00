/**
 * Read latency on Postgres at scale, through the Fastify adapter at 50 connections; target p99 <
 * 10 ms each as shipped, while the chain grows a block a second (each block, announced on the
 * cluster bus as an indexing instance does, starts afresh every cached answer it may change). Two loads, both through `Storage.writeBlock`: 1,000,000 transactions over 10,000
 * addresses for `account/txlist` of a heavy address, `transaction/:hash` and `block/getblock`;
 * and a token with 1,000,000 transfers to 100,000 holders for its holders' first page and its
 * transfer pages. A bare Fastify route answering each row's bytes runs in the same session as the
 * floor. The token rows' server has an anvil as its node (the token's `totalSupply()` is read
 * once per block: it has none there, so percentages are `null`).
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import type { Storage } from '@chainlens/core';
import { startAnvil } from '@chainlens/core/devchain';
import { postgresStorage } from '@chainlens/storage-postgres';
import { disturbed, DISTURBED_PERCENT, postgresPids, startCpuMeter, type Disturbance } from './lib/cpu-meter.js';
import { envInt } from './lib/env.js';
import { createHeadMover, type HeadMover } from './lib/head-mover.js';
import { benchDatabase, dropSchema, execute } from './lib/postgres.js';
import { describeMachine, printTable, writeResults } from './lib/report.js';
import { withServer } from './lib/server-process.js';
import { addressAt, blockHashAt, seededRandom, syntheticChain, tokenOf, transactionHashAt, type SyntheticChainOptions } from './lib/synthetic-chain.js';

const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const TARGET_P99_MS = 10;
/** Distinct URLs each row cycles through, so no single row stays hot in every cache. */
const URLS_PER_ROW = 10_000;
/** `account/txlist` pages of the heavy address, cycled (page × offset stays within Etherscan's 10,000). */
const TXLIST_PAGES = 100;
const TXLIST_OFFSET = 100;
/** Token transfer pages, cycled, and their size (the route's maximum). */
const TRANSFER_PAGES = 100;
const TOKEN_OFFSET = 100;

interface Row {
  name: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  disturbance: Disturbance;
  /**
   * `shipped`: ChainLens as shipped (response cache on) while the chain grows a block a second,
   * so every answer a block may change is read from Postgres again after it; held to the target.
   * `uncached`: the same route with the response cache off, every request reading Postgres
   * (shown: at 50 connections in a closed loop, p99 is bound by throughput, 50 ÷ req/s).
   * `moving`: a token's transfer pages while every new block moves that token too (shown).
   * `floor`: bare Fastify serving the answer's bytes.
   */
  role: 'shipped' | 'uncached' | 'moving' | 'floor';
}

/** Runs the benchmark, prints and saves it; resolves whether every target was met. */
export async function runQuery(): Promise<boolean> {
  const blocks = envInt('BENCH_QUERY_BLOCKS', 10_000);
  const txPerBlock = envInt('BENCH_QUERY_TXS', 100);
  // The heavy address sends 20,000 transactions whatever the size (smaller loads are smoke runs).
  const chain: SyntheticChainOptions = { blocks, txPerBlock, addresses: 10_000, heavyEvery: Math.max(1, Math.floor((blocks * txPerBlock) / 20_000)), logEvery: 5 };
  const duration = envInt('BENCH_DURATION', 10);
  const keep = process.env.BENCH_KEEP_DATA === '1';
  const machine = describeMachine();
  console.log(`load average ${machine.loadAverage1m} on ${machine.cores} cores before the run`);
  const database = await benchDatabase();
  // A kept load is found again by name on the next run; otherwise each run has its own schema.
  const schema = keep ? `bench_query_${chain.blocks}x${chain.txPerBlock}` : `bench_query_${randomBytes(4).toString('hex')}`;
  const rows: Row[] = [];
  let heavyCount: number;
  let tokenSettings: SyntheticChainOptions;
  try {
    const load = await loadChain(database.url, schema, chain);
    heavyCount = load.heavyCount;
    if (heavyCount < 10_000) throw new Error(`the heavy address has ${heavyCount} transactions, fewer than 10,000`);

    const random = seededRandom(7);
    const anyBlock = () => Math.floor(random() * chain.blocks);
    const heavy = addressAt(0);
    const paths = {
      txlist: cycle(TXLIST_PAGES, (i) => `/api/v1/account/txlist?address=${heavy}&page=${i + 1}&offset=${TXLIST_OFFSET}&sort=desc`),
      transaction: cycle(URLS_PER_ROW, () => `/api/v1/transaction/${transactionHashAt(anyBlock(), Math.floor(random() * chain.txPerBlock))}`),
      block: cycle(URLS_PER_ROW, () => `/api/v1/block/getblock?blockno=${anyBlock()}`),
    };

    const routes = [
      { name: `account/txlist (heavy address, offset ${TXLIST_OFFSET})`, paths: paths.txlist, check: (r: unknown) => Array.isArray(r) && r.length === TXLIST_OFFSET },
      { name: 'transaction/:hash', paths: paths.transaction, check: (r: unknown) => typeof (r as { hash: unknown }).hash === 'string' },
      { name: 'block/getblock', paths: paths.block, check: (r: unknown) => (r as { transactions: unknown[] }).transactions.length === chain.txPerBlock },
    ];
    const references = await measureRoutes(routes, [database.url, schema], [], duration, rows, await createHeadMover(database.url, schema, chain, WARMUP_SECONDS + duration + 5));
    rows.push(...(await floors(routes.map((route) => route.name), references, duration)));

    const tokenRows = await measureToken(database.url, keep, duration);
    tokenSettings = tokenRows.settings;
    rows.push(...tokenRows.rows);
  } finally {
    if (!keep) await dropSchema(database.url, schema);
    await database.stop();
  }

  const passed = rows.filter((r) => r.role === 'shipped').every((r) => r.p99Ms < TARGET_P99_MS);
  printTable(
    `${(chain.blocks * chain.txPerBlock).toLocaleString('en-US')} transactions over ${chain.addresses.toLocaleString('en-US')} addresses ` +
      `(heavy address: ${heavyCount!.toLocaleString('en-US')}); a token with ${(tokenSettings!.blocks * tokenSettings!.txPerBlock).toLocaleString('en-US')} transfers ` +
      `to ${tokenSettings!.tokenHolders!.toLocaleString('en-US')} holders; Postgres (${database.source}), ${CONNECTIONS} connections, ${duration} s per row`,
    ['route', 'req/s (mean)', 'p50 ms', 'p99 ms', 'requests', 'other CPU %', 'verdict'],
    rows.map((r) => [
      disturbed(r.disturbance) ? `${r.name} *` : r.name,
      Math.round(r.reqPerSec),
      r.p50Ms,
      r.p99Ms,
      r.requests,
      r.disturbance.othersPercent,
      r.role === 'shipped' ? (r.p99Ms < TARGET_P99_MS ? 'PASS' : 'FAIL') : r.role,
    ]),
  );
  console.log(`target: p99 < ${TARGET_P99_MS} ms for each ChainLens route as shipped, while the chain grows a block a second ("uncached" rows turn the response cache off, "moving" ones move the token in every block; shown, not judged)`);
  if (rows.some((r) => disturbed(r.disturbance))) {
    console.log(`* over ${DISTURBED_PERCENT}% of the CPU went to other processes or guests during this row: rerun on a quiet machine`);
  }
  await writeResults('query', {
    machine,
    settings: { ...chain, token: tokenSettings!, connections: CONNECTIONS, durationSeconds: duration, database: database.source, heavyCount: heavyCount! },
    rows,
    targetP99Ms: TARGET_P99_MS,
    verdict: passed ? 'PASS' : 'FAIL',
  });
  return passed;
}

/** Bare Fastify answering each body from memory: the floor of the ChainLens row of that name. */
async function floors(names: string[], bodies: string[], duration: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [i, name] of names.entries()) {
    const body = bodies[i]!;
    rows.push(
      await withServer('bare.ts', ['fastify', 'application/json; charset=utf-8', body], (server) =>
        measure(`bare Fastify, ${name} bytes (${Buffer.byteLength(body)})`, server.url, [`/api/v1/transaction/${transactionHashAt(0, 0)}`], [server.pid], duration, 'floor'),
      ),
    );
  }
  return rows;
}

/** The token load (kept like the other under BENCH_KEEP_DATA=1), its two rows and their floors. */
async function measureToken(url: string, keep: boolean, duration: number): Promise<{ settings: SyntheticChainOptions; rows: Row[] }> {
  const blocks = envInt('BENCH_QUERY_TOKEN_BLOCKS', 10_000);
  const settings: SyntheticChainOptions = { blocks, txPerBlock: 100, addresses: 10_000, heavyEvery: Number.MAX_SAFE_INTEGER, logEvery: 1, tokenHolders: envInt('BENCH_QUERY_HOLDERS', 100_000) };
  const schema = keep ? `bench_tokens_${blocks}x${settings.txPerBlock}x${settings.tokenHolders}` : `bench_tokens_${randomBytes(4).toString('hex')}`;
  const anvil = await startAnvil();
  try {
    await loadChain(url, schema, settings);
    const token = tokenOf(settings);
    const routes = [
      {
        name: `token holders, page 1 (offset ${TOKEN_OFFSET})`,
        paths: [`/api/v1/token/${token}/holders?page=1&offset=${TOKEN_OFFSET}`],
        check: (r: unknown) => (r as { total: number; holders: unknown[] }).total === settings.tokenHolders && (r as { holders: unknown[] }).holders.length === TOKEN_OFFSET,
      },
      {
        name: `token transfers (offset ${TOKEN_OFFSET})`,
        paths: cycle(TRANSFER_PAGES, (i) => `/api/v1/token/${token}/transfers?page=${i + 1}&offset=${TOKEN_OFFSET}`),
        check: (r: unknown) => Array.isArray(r) && r.length === TOKEN_OFFSET,
      },
    ];
    const rows: Row[] = [];
    // Judged while the chain moves other things (the added blocks carry plain transfers): a
    // token's pages then stay valid across blocks. Shown beside it: the same pages while every
    // block moves the token too (100 of its transfers each), so each block outdates every page.
    const mover = await createHeadMover(url, schema, settings, WARMUP_SECONDS + duration + 5, { logEvery: Number.MAX_SAFE_INTEGER });
    const bodies = await measureRoutes(routes, [url, schema, anvil.rpcUrl], [anvil.pid], duration, rows, mover);
    const tokenMover = await createHeadMover(url, schema, settings, WARMUP_SECONDS + duration + 5);
    try {
      await withServer('chainlens-postgres.ts', [url, schema, anvil.rpcUrl], async (server) => {
        const stop = tokenMover.start();
        try {
          rows.push(await measure(`${routes[1]!.name}, head moving with the token`, server.url, routes[1]!.paths, [server.pid, anvil.pid], duration, 'moving'));
        } finally {
          console.log(`  the chain grew ${await stop()} blocks meanwhile (rolled back)`);
        }
      });
    } finally {
      await tokenMover.close();
    }
    rows.push(...(await floors(routes.map((route) => route.name), bodies, duration)));
    return { settings, rows };
  } finally {
    await anvil.stop();
    if (!keep) await dropSchema(url, schema);
  }
}

/**
 * Loads the synthetic chain into `schema` unless it already holds all of it (a kept load), and
 * resolves the heavy address's transaction count as storage reports it.
 */
async function loadChain(url: string, schema: string, chain: SyntheticChainOptions): Promise<{ heavyCount: number }> {
  let storage: Storage = postgresStorage({ connectionString: url, schema });
  await storage.init();
  try {
    const cursor = await storage.getCursor();
    if (cursor?.hash !== blockHashAt(chain.blocks - 1)) {
      if (cursor) {
        await storage.close();
        await dropSchema(url, schema);
        storage = postgresStorage({ connectionString: url, schema });
        await storage.init();
      }
      const total = chain.blocks * chain.txPerBlock;
      console.log(`loading ${total.toLocaleString('en-US')} transactions into ${schema} through Storage.writeBlock…`);
      const started = performance.now();
      for (const bundle of syntheticChain(chain)) {
        await storage.writeBlock(bundle);
        const written = Number(bundle.block.number) + 1;
        if (written % 1_000 === 0 || written === chain.blocks) {
          const seconds = (performance.now() - started) / 1000;
          console.log(`  ${written} blocks, ${Math.round((written * chain.txPerBlock) / seconds).toLocaleString('en-US')} transactions/s`);
        }
      }
      // The metadata indexer's work, done here as the server does not index.
      if (chain.tokenHolders) await storage.setTokenMetadata(tokenOf(chain), { name: 'Bench Token', symbol: 'BENCH', decimals: 18, interfaces: [] });
      // What autovacuum does to a database in service; a fresh bulk load has no statistics yet.
      const tables = ['blocks', 'transactions', 'logs', 'address_transactions', 'address_stats', 'token_transfers', 'tokens', 'token_holders'];
      await execute(url, `VACUUM ANALYZE ${tables.map((t) => `${schema}.${t}`).join(', ')}`);
    } else {
      console.log(`reusing the load kept in ${schema}`);
    }
    return { heavyCount: (await storage.getAddressActivity(addressAt(0))).transactionCount };
  } finally {
    await storage.close();
  }
}

/** `count` values of `make(i)`. */
const cycle = (count: number, make: (i: number) => string): string[] => Array.from({ length: count }, (_, i) => make(i));

/** GETs `url`, checks it is a 200 envelope whose result passes `check`; resolves the body. */
async function expectAnswer(url: string, check: (result: unknown) => boolean): Promise<string> {
  const response = await fetch(url);
  const body = await response.text();
  if (response.status !== 200 || !check((JSON.parse(body) as { result: unknown }).result)) {
    throw new Error(`GET ${url} answered ${response.status}: ${body.slice(0, 500)}`);
  }
  return body;
}

/** A measured route: its name, the paths it cycles through, and a check of its answer. */
interface MeasuredRoute {
  name: string;
  paths: readonly string[];
  check: (result: unknown) => boolean;
}

/**
 * Measures each route on a ChainLens server without the response cache, then on one as shipped
 * while `mover` grows the chain, appending the rows to `rows`; resolves each route's first answer
 * (the floors serve its bytes).
 */
async function measureRoutes(routes: readonly MeasuredRoute[], serverArgs: string[], otherPids: number[], duration: number, rows: Row[], mover: HeadMover): Promise<string[]> {
  await withServer('chainlens-postgres.ts', ['--no-response-cache', ...serverArgs], async (server) => {
    for (const route of routes) rows.push(await measure(`${route.name}, uncached`, server.url, route.paths, [server.pid, ...otherPids], duration, 'uncached'));
  });
  try {
    return await withServer('chainlens-postgres.ts', serverArgs, async (server) => {
      const bodies = [];
      for (const route of routes) {
        bodies.push(await expectAnswer(server.url + route.paths[0], route.check));
        const stop = mover.start();
        try {
          rows.push(await measure(`${route.name}, head moving`, server.url, route.paths, [server.pid, ...otherPids], duration, 'shipped'));
        } finally {
          console.log(`  the chain grew ${await stop()} blocks meanwhile (rolled back)`);
        }
      }
      return bodies;
    });
  } finally {
    await mover.close();
  }
}

/** Loads `base` with the `paths` in turn; any failed request fails the run. */
async function measure(name: string, base: string, paths: readonly string[], pids: number[], duration: number, role: Row['role']): Promise<Row> {
  console.log(`${name}: ${WARMUP_SECONDS} s warm-up + ${duration} s…`);
  let next = 0;
  const meter = startCpuMeter(() => [...pids, ...postgresPids()]);
  const result = await autocannon({
    url: base + paths[0],
    connections: CONNECTIONS,
    duration,
    warmup: { connections: CONNECTIONS, duration: WARMUP_SECONDS },
    requests: [
      {
        setupRequest: (request) => {
          request.path = paths[next++ % paths.length]!;
          return request;
        },
      },
    ],
  });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0 || !result.requests.total) {
    throw new Error(`${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx (status codes ${JSON.stringify(result.statusCodeStats)})`);
  }
  return {
    name,
    reqPerSec: result.requests.mean,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    disturbance: meter(),
    role,
  };
}
