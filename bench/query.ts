/**
 * Reads on Postgres at scale (issue 24): each route through the Fastify adapter at 50
 * connections, while the chain grows a block a second (each block announced on the cluster bus as
 * an indexing instance does), against a bare Fastify route answering the same bytes in the same
 * run. Requests spread over the data as a Zipf law does (a few blocks, transactions, addresses and
 * tokens asked often, most rarely), so the shipped rows show the response cache's real hit rate.
 * Targets per route: as shipped, p99 ≤ 2× and req/s ≥ 0.5× the bare server's; with the response
 * cache off (storage answering every request), req/s ≥ 0.2× and p99 ≤ 5×.
 *
 * The scale knob is `BENCH_QUERY_TRANSACTIONS` (default 1,000,000; addresses, holders and the
 * rest grow with it); the load goes through the storage's own multi-block write path (the one
 * indexer catch-up uses: one `INSERT … SELECT unnest(…)` per table and block, many blocks per
 * transaction), so the loaded tables and every derived row are exactly what indexing writes.
 * `BENCH_KEEP_DATA=1` keeps a load for the next run of the same size.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import type { Storage } from '@chainlens/core';
import { startAnvil } from '@chainlens/devchain';
import { postgresStorage } from '@chainlens/storage-postgres';
import { disturbed, DISTURBED_PERCENT, postgresPids, residentMiB, startCpuMeter, type Disturbance } from './lib/cpu-meter.js';
import { envInt } from './lib/env.js';
import { createHeadMover, type HeadMover } from './lib/head-mover.js';
import { benchDatabase, dropSchema } from './lib/postgres.js';
import { describeMachine, printTable, writeResults } from './lib/report.js';
import { withServer } from './lib/server-process.js';
import { addressAt, blockHashAt, seededRandom, syntheticChain, tokenAt, tokenHolderAt, transactionHashAt, type SyntheticChainOptions } from './lib/synthetic-chain.js';

const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
/** Page size of every list route (the routes' maximum). */
const OFFSET = 100;
/** Pages of the heavy address's `txlist` and of a token's transfers (page × offset stays within Etherscan's 10,000). */
const DEEP_PAGES = 100;
const TOKENS = 20;
const TARGETS = { shipped: { reqPerSec: 0.5, p99: 2 }, uncached: { reqPerSec: 0.2, p99: 5 } } as const;
/** Blocks one `writeBlocks` call loads. */
const LOAD_BATCH = 50;

type Mode = keyof typeof TARGETS;

interface Row {
  route: string;
  mode: Mode | 'floor';
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  bytes: number;
  disturbance: Disturbance;
}

/** A measured route: a draw of its next request's path (its Zipf law), and a check of an answer. */
interface Route {
  name: string;
  draw: () => string;
  check: (result: unknown) => boolean;
}

/** The chain of a size: addresses, holders and the heavy address's share grow with the transactions. */
function chainOfSize(transactions: number): SyntheticChainOptions {
  const txPerBlock = 100;
  return {
    blocks: Math.ceil(transactions / txPerBlock),
    txPerBlock,
    addresses: Math.max(10_000, Math.floor(transactions / 100)),
    // About 20,000 transactions from the heavy address, whatever the size.
    heavyEvery: Math.max(1, Math.floor(transactions / 20_000)),
    // Every other transaction moves one of the tokens (in turn), minting to holders in turn;
    // an odd holder count reaches every holder of every token.
    logEvery: 2,
    tokens: TOKENS,
    tokenHolders: Math.floor(transactions / 10) + 1,
  };
}

/** Runs the benchmark, prints and saves it; resolves whether every target was met. */
export async function runQuery(): Promise<boolean> {
  const size = envInt('BENCH_QUERY_TRANSACTIONS', 1_000_000);
  const chain = chainOfSize(size);
  const duration = envInt('BENCH_DURATION', 10);
  const keep = process.env.BENCH_KEEP_DATA === '1';
  const machine = describeMachine();
  console.log(`load average ${machine.loadAverage1m} on ${machine.cores} cores before the run`);
  const database = await benchDatabase();
  const schema = keep ? `bench_reads_${size}` : `bench_reads_${randomBytes(4).toString('hex')}`;
  const anvil = await startAnvil();
  const rows: Row[] = [];
  const routes = routesOf(chain);
  let load: Load;
  const memory: Record<Mode, number> = { uncached: 0, shipped: 0 };
  try {
    load = await loadChain(database.url, schema, chain);
    const serverArgs = [database.url, schema, anvil.rpcUrl];
    // Each row's blocks are rolled back when it stops, so a row's worth is all the mover needs.
    const mover = await createHeadMover(database.url, schema, chain, WARMUP_SECONDS + duration + 5);
    const bodies: string[] = [];
    try {
      for (const mode of ['uncached', 'shipped'] as const) {
        await withServer('chainlens-postgres.ts', mode === 'uncached' ? ['--no-cache', ...serverArgs] : serverArgs, async (server) => {
          for (const route of routes) {
            // The first answer of each route is the bytes its floor serves.
            const body = await expectAnswer(server.url + route.draw(), route.check);
            if (mode === 'uncached') bodies.push(body);
            rows.push(await measureMoving(mover, route, mode, server.url, [server.pid, anvil.pid], duration, Buffer.byteLength(body)));
          }
          memory[mode] = Math.round(residentMiB(server.pid));
        });
      }
    } finally {
      await mover.close();
    }
    for (const [i, route] of routes.entries()) rows.push(await floor(route.name, bodies[i]!, duration));
  } finally {
    await anvil.stop();
    if (!keep) await dropSchema(database.url, schema);
    await database.stop();
  }

  const judged = routes.flatMap((route) => {
    const bare = rows.find((row) => row.route === route.name && row.mode === 'floor')!;
    return (['uncached', 'shipped'] as const).map((mode) => {
      const row = rows.find((r) => r.route === route.name && r.mode === mode)!;
      const target = TARGETS[mode];
      const [rate, tail] = [row.reqPerSec / bare.reqPerSec, row.p99Ms / Math.max(1, bare.p99Ms)];
      return { row, bare, rate, tail, pass: rate >= target.reqPerSec && tail <= target.p99 };
    });
  });
  printTable(
    `${size.toLocaleString('en-US')} transactions in ${chain.blocks.toLocaleString('en-US')} blocks over ${chain.addresses.toLocaleString('en-US')} addresses ` +
      `(heavy address: ${load!.heavyCount.toLocaleString('en-US')}); ${TOKENS} tokens, ${load!.transfers.toLocaleString('en-US')} transfers to ` +
      `${chain.tokenHolders!.toLocaleString('en-US')} holders; ${load!.seconds === null ? 'loaded by an earlier run' : `loaded in ${load!.seconds} s`}, ${load!.databaseSize} on disk; ` +
      `${load!.logs.toLocaleString('en-US')} logs, their topic indexes ${(load!.topicIndexBytes / 2 ** 20).toFixed(1)} MiB (${(load!.topicIndexBytes / Math.max(1, load!.logs) / 1.048576).toFixed(0)} MiB per million logs); ` +
      `Postgres (${database.source}), ${CONNECTIONS} connections, ${duration} s per row, head moving 1 block/s`,
    ['route', 'mode', 'req/s', 'p50 ms', 'p99 ms', 'bare req/s', 'bare p99', 'req/s ×bare', 'p99 ×bare', 'other CPU %', 'verdict'],
    judged.map(({ row, bare, rate, tail, pass }) => [
      disturbed(row.disturbance) ? `${row.route} *` : row.route,
      row.mode,
      Math.round(row.reqPerSec),
      row.p50Ms,
      row.p99Ms,
      Math.round(bare.reqPerSec),
      bare.p99Ms,
      Number(rate.toFixed(2)),
      Number(tail.toFixed(1)),
      row.disturbance.othersPercent,
      pass ? 'PASS' : 'FAIL',
    ]),
  );
  console.log(
    `targets: shipped req/s ≥ ${TARGETS.shipped.reqPerSec}× and p99 ≤ ${TARGETS.shipped.p99}× bare; uncached req/s ≥ ${TARGETS.uncached.reqPerSec}× and p99 ≤ ${TARGETS.uncached.p99}× bare (a bare p99 under 1 ms counts as 1 ms)`,
  );
  console.log(`API instance resident memory after its rows: uncached ${memory.uncached} MB, shipped ${memory.shipped} MB`);
  if (rows.some((r) => disturbed(r.disturbance))) console.log(`* over ${DISTURBED_PERCENT}% of the CPU went to other processes or guests during this row: rerun on a quiet machine`);
  const passed = judged.every((j) => j.pass);
  await writeResults(`query-${size}`, {
    machine,
    settings: { ...chain, transactions: size, connections: CONNECTIONS, durationSeconds: duration, database: database.source },
    load: load!,
    memoryMegabytes: memory,
    rows,
    targets: TARGETS,
    verdict: passed ? 'PASS' : 'FAIL',
  });
  return passed;
}

/**
 * Ranks `0 … count-1` drawn by a Zipf law (exponent 1: rank r about as likely as 1/r, drawn as
 * a log-uniform), each rank mapped to an item by a fixed stride so hot items are scattered.
 */
function zipf(count: number, random: () => number): () => number {
  const stride = strideFor(count);
  return () => {
    const rank = Math.min(count - 1, Math.floor(Math.exp(random() * Math.log(count + 1))) - 1);
    return Number((BigInt(rank) * BigInt(stride)) % BigInt(count));
  };
}

/** A stride coprime with `count` near its golden section: a permutation of the ranks. */
function strideFor(count: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let stride = Math.max(1, Math.floor(count * 0.618));
  while (gcd(stride, count) !== 1) stride++;
  return stride;
}

/** The routes issue 24 names, each over the requests of its Zipf law. */
function routesOf(chain: SyntheticChainOptions): Route[] {
  const random = seededRandom(24);
  const block = zipf(chain.blocks, random);
  const transaction = zipf(chain.blocks * chain.txPerBlock, random);
  const token = zipf(TOKENS, random);
  const address = zipf(chain.addresses - 1, random);
  const holder = zipf(chain.tokenHolders!, random);
  // First pages are asked most; deep ones still often enough to be read.
  const page = zipf(DEEP_PAGES, random);
  const sort = () => (random() < 0.5 ? 'asc' : 'desc');
  const isList = (length: number) => (result: unknown) => Array.isArray(result) && result.length === length;
  const heavy = addressAt(0);
  return [
    {
      name: 'transaction/:hash',
      draw: () => {
        const serial = transaction();
        return `/api/v1/transaction/${transactionHashAt(Math.floor(serial / chain.txPerBlock), serial % chain.txPerBlock)}`;
      },
      check: (r) => typeof (r as { hash: unknown }).hash === 'string',
    },
    { name: 'block/getblock', draw: () => `/api/v1/block/getblock?blockno=${block()}`, check: (r) => (r as { transactions: unknown[] }).transactions.length === chain.txPerBlock },
    {
      name: 'account/txlist (heavy address)',
      draw: () => `/api/v1/account/txlist?address=${heavy}&page=${page() + 1}&offset=${OFFSET}&sort=${sort()}`,
      check: isList(OFFSET),
    },
    {
      name: 'token/:address/holders',
      draw: () => `/api/v1/token/${tokenAt(chain, token())}/holders?page=${Math.min(page(), 9) + 1}&offset=${OFFSET}`,
      check: (r) => (r as { holders: unknown[] }).holders.length === OFFSET,
    },
    {
      name: 'token/:address/transfers (deep pages)',
      draw: () => `/api/v1/token/${tokenAt(chain, token())}/transfers?page=${page() + 1}&offset=${OFFSET}`,
      check: isList(OFFSET),
    },
    {
      name: 'contract/:address/events',
      draw: () => `/api/v1/contract/${tokenAt(chain, token())}/events?page=${page() + 1}&offset=${OFFSET}&sort=${sort()}`,
      check: isList(OFFSET),
    },
    {
      name: 'Etherscan account txlist',
      draw: () => `/api?module=account&action=txlist&address=${addressAt(1 + address())}&page=1&offset=${OFFSET}&sort=${sort()}`,
      check: (r) => Array.isArray(r) && r.length > 0,
    },
    {
      // A topic search without a contract, on the topic index: each holder's incoming transfers (topic2) across every token.
      name: 'Etherscan getLogs by topic2 alone',
      draw: () => `/api?module=logs&action=getLogs&topic2=0x${tokenHolderAt(chain, holder()).slice(2).padStart(64, '0')}&page=1&offset=${OFFSET}`,
      check: (r) => Array.isArray(r) && r.length > 0,
    },
    {
      name: 'Etherscan account tokentx',
      draw: () => `/api?module=account&action=tokentx&address=${tokenHolderAt(chain, holder())}&page=1&offset=${OFFSET}&sort=${sort()}`,
      check: (r) => Array.isArray(r) && r.length > 0,
    },
  ];
}

/** What a load holds, as storage and Postgres report it. */
interface Load {
  heavyCount: number;
  transfers: number;
  /** Load time, or `null` for a load kept from an earlier run. */
  seconds: number | null;
  databaseSize: string;
  /** Stored logs, and the bytes of the four topic indexes (logs_by_topic0 … 3) on them. */
  logs: number;
  topicIndexBytes: number;
}

/**
 * Loads the synthetic chain into `schema` unless it already holds all of it (a kept load), then
 * analyses it as autovacuum would a database in service.
 */
async function loadChain(url: string, schema: string, chain: SyntheticChainOptions): Promise<Load> {
  let storage: Storage = postgresStorage({ connectionString: url, schema });
  await storage.init();
  let seconds: number | null = null;
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
      console.log(`loading ${total.toLocaleString('en-US')} transactions into ${schema}, ${LOAD_BATCH} blocks per Storage.writeBlocks…`);
      const started = performance.now();
      let batch = [];
      for (const bundle of syntheticChain(chain)) {
        batch.push(bundle);
        if (batch.length < LOAD_BATCH && bundle.block.number < BigInt(chain.blocks - 1)) continue;
        await storage.writeBlocks(batch);
        batch = [];
        const written = Number(bundle.block.number) + 1;
        if (written % 5_000 === 0 || written === chain.blocks) {
          console.log(`  ${written} blocks, ${Math.round((written * chain.txPerBlock) / ((performance.now() - started) / 1000)).toLocaleString('en-US')} transactions/s`);
        }
      }
      // The metadata indexer's work, done here as the server does not index.
      for (let i = 0; i < TOKENS; i++) await storage.setTokenMetadata(tokenAt(chain, i), { name: `Bench Token ${i}`, symbol: `BENCH${i}`, decimals: 18, interfaces: [] });
      await inSchema(url, schema, (client) => client.query('VACUUM ANALYZE'));
      seconds = Math.round((performance.now() - started) / 1000);
      console.log(`  loaded and analysed in ${seconds} s`);
    } else {
      console.log(`reusing the load kept in ${schema}`);
    }
    const heavyCount = (await storage.getAddressActivity(addressAt(0))).transactionCount;
    const transfers = (await Promise.all(Array.from({ length: TOKENS }, (_, i) => storage.getToken(tokenAt(chain, i))))).reduce((sum, token) => sum + Number(token?.transferCount ?? 0), 0);
    const databaseSize = await inSchema(url, schema, async (client) => {
      const { rows } = await client.query<{ size: string }>(
        `SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) AS size FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
        [schema],
      );
      return rows[0]!.size;
    });
    const { logs, topicIndexBytes } = await inSchema(url, schema, async (client) => {
      const { rows } = await client.query<{ logs: string; bytes: string }>(
        `SELECT (SELECT count(*) FROM logs) AS logs, (SELECT sum(pg_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname LIKE 'logs\\_by\\_topic_') AS bytes`,
        [schema],
      );
      return { logs: Number(rows[0]!.logs), topicIndexBytes: Number(rows[0]!.bytes) };
    });
    return { heavyCount, transfers, seconds, databaseSize, logs, topicIndexBytes };
  } finally {
    await storage.close();
  }
}

/** Runs `use` on a connection whose search path is `schema`. */
async function inSchema<T>(url: string, schema: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** GETs `url`, checks it is a 200 envelope whose result passes `check`; resolves the body. */
async function expectAnswer(url: string, check: (result: unknown) => boolean): Promise<string> {
  const response = await fetch(url);
  const body = await response.text();
  if (response.status !== 200 || !check((JSON.parse(body) as { result: unknown }).result)) throw new Error(`GET ${url} answered ${response.status}: ${body.slice(0, 500)}`);
  return body;
}

/** Measures `route` on `base` while `mover` grows the chain a block a second. */
async function measureMoving(mover: HeadMover, route: Route, mode: Mode, base: string, pids: number[], duration: number, bytes: number): Promise<Row> {
  const stop = mover.start();
  try {
    return { ...(await measure(`${route.name}, ${mode}`, base, route.draw, pids, duration)), route: route.name, mode, bytes };
  } finally {
    console.log(`  the chain grew ${await stop()} blocks meanwhile (rolled back)`);
  }
}

/** Bare Fastify answering `body` from memory: the floor of the route of that name. */
async function floor(route: string, body: string, duration: number): Promise<Row> {
  // The body goes by file: a page can outgrow what one command-line argument may hold.
  const dir = await mkdtemp(join(tmpdir(), 'chainlens-bench-'));
  try {
    const file = join(dir, 'body.json');
    await writeFile(file, body);
    return await withServer('bare.ts', ['fastify', 'application/json; charset=utf-8', `@${file}`], async (server) => ({
      ...(await measure(`bare Fastify, ${route} bytes (${Buffer.byteLength(body)})`, server.url, () => `/api/v1/transaction/${transactionHashAt(0, 0)}`, [server.pid], duration)),
      route,
      mode: 'floor' as const,
      bytes: Buffer.byteLength(body),
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}


/** Loads `base` with a fresh `draw` for every request (a fixed list, cycled, would turn the tail hot); any failed request fails the run. */
async function measure(name: string, base: string, draw: () => string, pids: number[], duration: number) {
  console.log(`${name}: ${WARMUP_SECONDS} s warm-up + ${duration} s…`);
  const meter = startCpuMeter(() => [...pids, ...postgresPids()]);
  const result = await autocannon({
    url: base + draw(),
    connections: CONNECTIONS,
    duration,
    warmup: { connections: CONNECTIONS, duration: WARMUP_SECONDS },
    requests: [
      {
        setupRequest: (request) => {
          request.path = draw();
          return request;
        },
      },
    ],
  });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0 || !result.requests.total) throw new Error(`${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx (status codes ${JSON.stringify(result.statusCodeStats)})`);
  return { reqPerSec: result.requests.mean, p50Ms: result.latency.p50, p99Ms: result.latency.p99, requests: result.requests.total, disturbance: meter() };
}
