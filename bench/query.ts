/**
 * Reads on Postgres at scale (issues 24 and 38): each route through the Fastify adapter at 50
 * connections, rate limits on as shipped, while the chain grows a block a second (each block
 * announced on the cluster bus as an indexing instance does). Requests spread over the data as a
 * Zipf law does (a few blocks, transactions, addresses, tokens and pages asked often, most
 * rarely), so the shipped rows show the response cache's real hit rate: a served explorer's, after
 * a warm-up of 30 s (`BENCH_QUERY_SHIPPED_WARMUP`) rather than the other rows' 2. Each route is measured in
 * the same run, at the same concurrency, four ways: its **floor** (a prepared-statement loop on
 * `pg`, no HTTP, running the cheapest SQL that returns exactly the rows of the page each request
 * asks, drawn by the same law: the fastest of the bench's own SQL and the statement ChainLens runs
 * for the route, checked to return the same rows, each over 50 connections and over as many as
 * ChainLens's pool holds), ChainLens **uncached** (no response or record cache: storage
 * answers every request), ChainLens **as shipped**, and **bare** Fastify answering the route's
 * bytes from memory. List routes are also measured uncached at page 1 and at page 50 alone.
 * Targets (issue 38): uncached ≥ 0.5× the floor's req/s; as shipped ≥ 0.5× bare's with p99 ≤ 3×
 * the floor's; page 50 within 1.5× of page 1. One `ratio <route> …` line per route says how each
 * fell. `BENCH_QUERY_ROUTES=transfers,events` measures only the routes whose names hold those parts.
 *
 * The scale knob is `BENCH_QUERY_TRANSACTIONS` (default 1,000,000; addresses, holders and the
 * rest grow with it); the load goes through the storage's own multi-block write path (the one
 * indexer catch-up uses: one `INSERT … SELECT unnest(…)` per table and block, many blocks per
 * transaction), so the loaded tables and every derived row are exactly what indexing writes.
 * `BENCH_KEEP_DATA=1` keeps a load for the next run of the same size; a kept schema whose cursor is
 * not the load's last block (blocks left by a head mover, an interrupted load) is refused, not reloaded.
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
import { statementLoop } from './lib/statement-loop.js';
import { logsStatement } from '../packages/storage-postgres/src/log-topic-queries.js';
import { resolveOptions } from '../packages/storage-postgres/src/options.js';
import { addressLogsKey, readStatements, tokenTransfersKey } from '../packages/storage-postgres/src/queries.js';
import { qualifiedTables } from '../packages/storage-postgres/src/tables.js';
import { addressAt, blockHashAt, seededRandom, syntheticChain, tokenAt, tokenHolderAt, transactionHashAt, type SyntheticChainOptions } from './lib/synthetic-chain.js';

const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
/**
 * Warm-up of the shipped rows by default (`BENCH_QUERY_SHIPPED_WARMUP` seconds): a served explorer
 * has answered its routes for long before any moment measured, and its caches hold what their
 * sizes and the requests' law let them, not what a couple of seconds of a cold start filled (a
 * route's draws name a few thousand pages).
 */
const SHIPPED_WARMUP_SECONDS = 30;
/** Page size of every list route (the routes' maximum). */
const OFFSET = 100;
/** Pages of the heavy address's `txlist` and of a token's transfers (page × offset stays within Etherscan's 10,000). */
const DEEP_PAGES = 100;
/** The deep page measured against page 1. */
const DEEP_PAGE = 50;
const TOKENS = 20;
/** Issue 38's targets: uncached against the database's floor, as shipped against the bare server, the tail against the floor's, and a deep page against the first. */
const TARGETS = { uncachedPerFloor: 0.5, shippedPerBare: 0.5, p99PerFloor: 3, deepPerFirst: 1 / 1.5 } as const;
/** Connections of ChainLens's Postgres pool, as shipped: a floor row reads over as many, besides one per connection of the load. */
const POOL_CONNECTIONS = resolveOptions({ connectionString: 'postgres://' }).pool.max;
/** Draws each floor candidate is checked on against the first. */
const SAME_ROWS_DRAWS = 40;
/** Blocks one `writeBlocks` call loads. */
const LOAD_BATCH = 50;

type Mode = 'uncached' | 'shipped';

interface Row {
  route: string;
  /** The floor's rows are `floor: <whose SQL>, <connections> conn.`; the route's floor is the fastest of them. */
  mode: Mode | `floor: ${string}` | 'bare' | 'page 1' | `page ${typeof DEEP_PAGE}`;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  bytes: number;
  disturbance: Disturbance;
}

/** A measured route: a draw of its next request (its Zipf law), a check of an answer, and its floor. */
interface Route {
  name: string;
  draw: () => Draw;
  check: (result: unknown) => boolean;
  floor: Floor;
  /** For a list route: requests at a fixed page, over items with at least 50 pages. */
  paged?: (page: number) => () => Draw;
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
  const shippedWarmup = envInt('BENCH_QUERY_SHIPPED_WARMUP', SHIPPED_WARMUP_SECONDS);
  const keep = process.env.BENCH_KEEP_DATA === '1';
  // A comma-separated list of route name parts measures only those routes.
  const only = process.env.BENCH_QUERY_ROUTES?.split(',');
  const machine = describeMachine();
  console.log(`load average ${machine.loadAverage1m} on ${machine.cores} cores before the run`);
  const database = await benchDatabase();
  const schema = keep ? `bench_reads_${size}` : `bench_reads_${randomBytes(4).toString('hex')}`;
  const anvil = await startAnvil();
  const rows: Row[] = [];
  const routes = routesOf(chain, schema).filter((route) => !only || only.some((name) => route.name.includes(name)));
  let load: Load;
  const memory: Record<Mode, number> = { uncached: 0, shipped: 0 };
  try {
    load = await loadChain(database.url, schema, chain);
    const serverArgs = [database.url, schema, anvil.rpcUrl];
    // Its blocks are rolled back when it closes, so the kept load stays as loaded.
    const mover = await createHeadMover(database.url, schema, chain);
    const bodies: string[] = [];
    try {
      // The floors first, while the head moves as it does under the server's rows: each way to
      // read the page (checked first, the head still, to return the same rows), over the route's
      // connections and over as many as ChainLens's pool holds, whichever serves the route faster.
      for (const route of routes) {
        await checkSameRows(route, database.url, schema);
        for (const sql of route.floor.candidates) {
          for (const connections of new Set([CONNECTIONS, POOL_CONNECTIONS])) rows.push(await measureFloor(mover, route, sql, connections, database.url, schema, duration));
        }
      }
      for (const mode of ['uncached', 'shipped'] as const) {
        await withServer('chainlens-postgres.ts', mode === 'uncached' ? ['--no-cache', ...serverArgs] : serverArgs, async (server) => {
          for (const route of routes) {
            // The first answer of each route is the bytes its bare server serves.
            const body = await expectAnswer(server.url + route.draw().path, route.check);
            if (mode === 'uncached') bodies.push(body);
            const warmup = mode === 'shipped' ? shippedWarmup : WARMUP_SECONDS;
            rows.push(await measureMoving(mover, route.name, route.draw, mode, server.url, [server.pid, anvil.pid], warmup, duration, Buffer.byteLength(body)));
            if (mode === 'uncached' && route.paged) {
              for (const page of [1, DEEP_PAGE] as const) {
                const draw = route.paged(page);
                await expectAnswer(server.url + draw().path, route.check);
                rows.push(await measureMoving(mover, route.name, draw, `page ${page}`, server.url, [server.pid, anvil.pid], WARMUP_SECONDS, duration, 0));
              }
            }
          }
          memory[mode] = Math.round(residentMiB(server.pid));
        });
      }
    } finally {
      await mover.close();
    }
    for (const [i, route] of routes.entries()) rows.push(await bare(route.name, bodies[i]!, duration));
  } finally {
    await anvil.stop();
    if (!keep) await dropSchema(database.url, schema);
    await database.stop();
  }

  const rowOf = (route: string, mode: Row['mode']) => rows.find((row) => row.route === route && row.mode === mode);
  const floorOf = (route: string) => rows.filter((row) => row.route === route && row.mode.startsWith('floor')).reduce((best, row) => (row.reqPerSec > best.reqPerSec ? row : best));
  const judged = routes.map((route) => {
    const floor = floorOf(route.name);
    const [uncached, shipped, bareRow] = (['uncached', 'shipped', 'bare'] as const).map((mode) => rowOf(route.name, mode)!);
    const [first, deep] = [rowOf(route.name, 'page 1'), rowOf(route.name, `page ${DEEP_PAGE}`)];
    const ratios = {
      uncachedPerFloor: uncached!.reqPerSec / floor!.reqPerSec,
      shippedPerBare: shipped!.reqPerSec / bareRow!.reqPerSec,
      p99PerFloor: shipped!.p99Ms / Math.max(1, floor!.p99Ms),
      deepPerFirst: first && deep ? deep.reqPerSec / first.reqPerSec : null,
    };
    const pass =
      ratios.uncachedPerFloor >= TARGETS.uncachedPerFloor &&
      ratios.shippedPerBare >= TARGETS.shippedPerBare &&
      ratios.p99PerFloor <= TARGETS.p99PerFloor &&
      (ratios.deepPerFirst === null || ratios.deepPerFirst >= TARGETS.deepPerFirst);
    return { route: route.name, floor: floor.mode, ratios, pass };
  });
  printTable(
    `${size.toLocaleString('en-US')} transactions in ${chain.blocks.toLocaleString('en-US')} blocks over ${chain.addresses.toLocaleString('en-US')} addresses ` +
      `(heavy address: ${load!.heavyCount.toLocaleString('en-US')}); ${TOKENS} tokens, ${load!.transfers.toLocaleString('en-US')} transfers to ` +
      `${chain.tokenHolders!.toLocaleString('en-US')} holders; ${load!.seconds === null ? 'loaded by an earlier run' : `loaded in ${load!.seconds} s`}, ${load!.databaseSize} on disk; ` +
      `${load!.logs.toLocaleString('en-US')} logs, their topic indexes ${(load!.topicIndexBytes / 2 ** 20).toFixed(1)} MiB (${(load!.topicIndexBytes / Math.max(1, load!.logs) / 1.048576).toFixed(0)} MiB per million logs); ` +
      `Postgres (${database.source}), ${CONNECTIONS} connections, ${duration} s per row after ${WARMUP_SECONDS} s of warm-up (${shippedWarmup} s for the shipped rows), head moving 1 block/s, rate limits on`,
    ['route', 'mode', 'req/s', 'p50 ms', 'p99 ms', 'bytes', 'other CPU %'],
    rows.map((row) => [disturbed(row.disturbance) ? `${row.route} *` : row.route, row.mode, Math.round(row.reqPerSec), row.p50Ms, row.p99Ms, row.bytes, row.disturbance.othersPercent]),
  );
  console.log('');
  for (const { route, floor, ratios, pass } of judged) console.log(`floor of ${route}: ${floor.slice('floor: '.length)}, the fastest of its floor rows`);
  for (const { route, ratios, pass } of judged) {
    const deep = ratios.deepPerFirst === null ? '' : ` page${DEEP_PAGE}/page1 ${ratios.deepPerFirst.toFixed(2)}`;
    console.log(
      `ratio ${route} uncached/floor ${ratios.uncachedPerFloor.toFixed(2)} shipped/bare ${ratios.shippedPerBare.toFixed(2)} p99/floor ${ratios.p99PerFloor.toFixed(1)}${deep} ${pass ? 'PASS' : 'FAIL'}`,
    );
  }
  console.log(
    `targets: uncached req/s ≥ ${TARGETS.uncachedPerFloor}× the floor's; shipped req/s ≥ ${TARGETS.shippedPerBare}× bare's and p99 ≤ ${TARGETS.p99PerFloor}× the floor's (a p99 under 1 ms counts as 1 ms); ` +
      `page ${DEEP_PAGE} req/s ≥ page 1's / 1.5 (uncached)`,
  );
  console.log(`API instance resident memory after its rows: uncached ${memory.uncached} MB, shipped ${memory.shipped} MB`);
  if (rows.some((r) => disturbed(r.disturbance))) console.log(`* over ${DISTURBED_PERCENT}% of the CPU went to other processes or guests during this row: rerun on a quiet machine`);
  const passed = judged.every((j) => j.pass);
  await writeResults(`query-${size}`, {
    machine,
    settings: { ...chain, transactions: size, connections: CONNECTIONS, durationSeconds: duration, warmupSeconds: WARMUP_SECONDS, shippedWarmupSeconds: shippedWarmup, database: database.source },
    load: load!,
    memoryMegabytes: memory,
    rows,
    ratios: judged,
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

/** One drawn request: its path, and the values of its floor statement (`statement` picks asc or desc where the route has both). */
interface Draw {
  path: string;
  statement: number;
  values: unknown[];
}

/**
 * A route's floor: the cheapest SQL returning exactly the rows of the page the route answers, and
 * how many rows a run may return. Several ways to read the page are measured and the fastest is
 * the floor: the bench's own SQL, and the statement ChainLens runs for the route uncached where
 * that is one statement (its ordinal reads can be the cheaper), each checked to return the same
 * rows as the first.
 */
interface Floor {
  candidates: FloorSql[];
  rows: (count: number) => boolean;
}

/** One way to read a route's page: a statement per draw's `statement` (its sort), and the draw's values as it takes them. */
interface FloorSql {
  /** Whose SQL it is, as the floor rows name it. */
  label: string;
  statements: string[];
  /** Its values from the draw's (the bench's own statements' order); the draw's as they are without it. */
  values?: (values: unknown[]) => unknown[];
  /** The columns that identify a row (its place in the chain), by which the candidates are checked to return the same rows in the same order. */
  identity: string[];
}

const bytes = (hex: string): Buffer => Buffer.from(hex.slice(2), 'hex');
const word = (address: string): Buffer => bytes(`0x${address.slice(2).padStart(64, '0')}`);
const isPage = (count: number) => count === OFFSET;
const isSome = (count: number) => count > 0;

// Floor statements, on the bench's schema (search_path). Each reads through the same indexes the
// storage has, in the fewest round trips: one statement per page, the page's rows joined with
// what the route shows of them (a transfer's or a log's transaction).
const ORDER = ['ASC', 'DESC'] as const;
const FLOOR = {
  transaction: 'SELECT * FROM transactions WHERE hash = $1',
  block: 'SELECT * FROM blocks WHERE number = $1',
  // An address's transactions are numbered in chain order (seq): a page is a range of ordinals.
  addressTransactions: ORDER.map(
    (order) => `SELECT t.* FROM (SELECT max(seq) AS hi FROM address_transactions WHERE address = $1) bounds
      JOIN address_transactions a ON a.address = $1 AND a.seq BETWEEN ${order === 'ASC' ? '$2 + 1 AND $2 + $3' : 'bounds.hi - $2 - $3 + 1 AND bounds.hi - $2'}
      JOIN transactions t USING (block_number, transaction_index) ORDER BY a.seq ${order}`,
  ),
  holders: [
    `SELECT h.holder, h.balance, h.first_seen, h.last_activity
      FROM (SELECT holder FROM token_holders WHERE token = $1 AND balance > 0 ORDER BY balance DESC, holder LIMIT $2 OFFSET $3) page
      JOIN token_holders h ON h.token = $1 AND h.holder = page.holder ORDER BY h.balance DESC, h.holder`,
  ],
  // A token's transfers are numbered in chain order too (token_seq, migration 22).
  tokenTransfers: ORDER.map(
    (order) => `SELECT x.* FROM (SELECT max(token_seq) AS hi FROM token_transfers WHERE token = $1) bounds
      JOIN token_transfers x ON x.token = $1 AND x.token_seq BETWEEN ${order === 'ASC' ? '$2 + 1 AND $2 + $3' : 'bounds.hi - $2 - $3 + 1 AND bounds.hi - $2'}
      ORDER BY x.token_seq ${order}`,
  ),
  tokenTransfersWithTransactions: ORDER.map(
    (order) => `SELECT x.*, t.* FROM (SELECT max(token_seq) AS hi FROM token_transfers WHERE token = $1) bounds
      JOIN token_transfers x ON x.token = $1 AND x.token_seq BETWEEN ${order === 'ASC' ? '$2 + 1 AND $2 + $3' : 'bounds.hi - $2 - $3 + 1 AND bounds.hi - $2'}
      JOIN transactions t ON t.block_number = x.block_number AND t.transaction_index = x.transaction_index
      ORDER BY x.token_seq ${order}`,
  ),
  addressTokenTransfers: ORDER.map((order) => {
    const side = (party: string) => `(SELECT * FROM token_transfers WHERE ${party} = $1 ORDER BY block_number ${order}, log_index ${order}, batch_index ${order} LIMIT $2)`;
    return `SELECT x.*, t.* FROM (${side('from_address')} UNION ${side('to_address')}) x
      JOIN transactions t ON t.block_number = x.block_number AND t.transaction_index = x.transaction_index
      ORDER BY x.block_number ${order}, x.log_index ${order}, x.batch_index ${order} LIMIT $2`;
  }),
  // A contract's logs (events, getLogs by address) are numbered in chain order too (address_seq,
  // migration 24): a page is a range of ordinals, joined with its transactions.
  addressLogs: ORDER.map(
    (order) => `SELECT l.*, t.hash, t.block_hash, t.timestamp, t.effective_gas_price, t.gas_used
      FROM (SELECT max(address_seq) AS hi FROM logs WHERE address = $1) bounds
      JOIN logs l ON l.address = $1 AND l.address_seq BETWEEN ${order === 'ASC' ? '$3 + 1 AND $3 + $2' : 'bounds.hi - $3 - $2 + 1 AND bounds.hi - $3'}
      JOIN transactions t ON t.block_number = l.block_number AND t.transaction_index = l.transaction_index
      ORDER BY l.address_seq ${order}`,
  ),
  topic2Logs: [
    `SELECT l.*, t.hash, t.block_hash, t.timestamp, t.effective_gas_price, t.gas_used
      FROM (SELECT * FROM logs WHERE topic2 = $1 ORDER BY block_number, log_index LIMIT $2) l
      JOIN transactions t ON t.block_number = l.block_number AND t.transaction_index = l.transaction_index
      ORDER BY l.block_number, l.log_index`,
  ],
};

/** The bench's own statements as floor candidates, each row identified by `identity`. */
const benchSql = (statements: string[], identity: string[]): FloorSql => ({ label: 'bench SQL', statements, identity });

/** Every block: the block range of an unfiltered page in ChainLens's statements (int8's bounds, as storage passes them). */
const EVERY_BLOCK = ['0', (2n ** 63n - 1n).toString()];
const TRANSFER_IDENTITY = ['blockNumber', 'logIndex', 'batchIndex'];
const LOG_IDENTITY = ['blockNumber', 'logIndex'];

/**
 * The statements ChainLens runs for each route uncached where it reads the page in one
 * (`@chainlens/storage-postgres`'s own texts, prepared for `schema`), as floor candidates with
 * their values made from the bench's draws, in the order storage passes them.
 */
function chainLensSql(schema: string) {
  const tables = qualifiedTables(schema);
  const read = readStatements(tables);
  const candidate = (statements: string[], values: (values: unknown[]) => unknown[], identity: string[]): FloorSql => ({ label: 'ChainLens SQL', statements, values, identity });
  const tokenTransfers = (joined: boolean) =>
    candidate(
      ORDER.map((order) => read.tokenTransfers[tokenTransfersKey(order, false, false, joined)]!.text),
      ([token, skip, offset]) => [token, ...EVERY_BLOCK, offset, skip],
      TRANSFER_IDENTITY,
    );
  const addressLogs = (gas: boolean) =>
    candidate(
      ORDER.map((order) => read.addressLogs[addressLogsKey(order, false, gas)]!.text),
      ([address, offset, skip]) => [address, ...EVERY_BLOCK, offset, skip],
      LOG_IDENTITY,
    );
  return {
    addressTransactions: candidate(
      [read.addressTransactionsAsc.text, read.addressTransactionsDesc.text],
      ([address, skip, offset]) => [address, ...EVERY_BLOCK, offset, skip],
      ['blockNumber', 'transactionIndex'],
    ),
    tokenTransfers: tokenTransfers(false),
    tokenTransfersWithTransactions: tokenTransfers(true),
    // REST events read the logs alone; getLogs with their transactions' time and gas.
    events: addressLogs(false),
    getLogs: addressLogs(true),
    topic2Logs: candidate(
      [logsStatement(tables, { topics: [undefined, undefined, `0x${'00'.repeat(32)}`], operators: {}, page: 1, offset: OFFSET }, true).text],
      ([topic, limit]) => [...EVERY_BLOCK, limit, 0, topic],
      LOG_IDENTITY,
    ),
    // Etherscan's tokentx of an address asks for ERC-20 transfers.
    addressTokenTransfers: candidate(
      ORDER.map((order) => read.addressTokenTransfersWithTokens[order].text),
      ([address, limit]) => [address, ...EVERY_BLOCK, limit, 0, null, 'ERC-20'],
      TRANSFER_IDENTITY,
    ),
  };
}

/**
 * The routes issue 38 names (plus issue 34's topic search), each over the requests of its Zipf
 * law, with its floor. A list route with `paged` also draws requests at a fixed page, for the
 * deep-page rows (page 50 against page 1) over an item with at least 50 pages.
 */
function routesOf(chain: SyntheticChainOptions, schema: string): Route[] {
  const ours = chainLensSql(schema);
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
  /** A page of `item`'s list: the path's part and the floor's values (page values from 0). */
  const listDraw = (path: (item: string, page: number, sort: string) => string, values: (item: string, skip: number) => unknown[]) => (item: () => string, pageOf: () => number) => () => {
    const [at, p, order] = [item(), pageOf(), sort()];
    return { path: path(at, p, order), statement: order === 'asc' ? 0 : 1, values: values(at, (p - 1) * OFFSET) };
  };
  const tokenItem = () => tokenAt(chain, token());
  const zipfPage = () => page() + 1;
  const fixed = (p: number) => () => p;
  const accountTxlist = listDraw((a, p, o) => `/api/v1/account/txlist?address=${a}&page=${p}&offset=${OFFSET}&sort=${o}`, (a, skip) => [bytes(a), skip, OFFSET]);
  const etherscanTxlist = listDraw((a, p, o) => `/api?module=account&action=txlist&address=${a}&page=${p}&offset=${OFFSET}&sort=${o}`, (a, skip) => [bytes(a), skip, OFFSET]);
  const holders = listDraw((t, p) => `/api/v1/token/${t}/holders?page=${p}&offset=${OFFSET}`, (t, skip) => [bytes(t), OFFSET, skip]);
  const transfers = listDraw((t, p) => `/api/v1/token/${t}/transfers?page=${p}&offset=${OFFSET}`, (t, skip) => [bytes(t), skip, OFFSET]);
  const events = listDraw((t, p, o) => `/api/v1/contract/${t}/events?page=${p}&offset=${OFFSET}&sort=${o}`, (t, skip) => [bytes(t), OFFSET, skip]);
  const getLogs = listDraw((t, p) => `/api?module=logs&action=getLogs&address=${t}&page=${p}&offset=${OFFSET}`, (t, skip) => [bytes(t), OFFSET, skip]);
  const tokentxOfToken = listDraw((t, p, o) => `/api?module=account&action=tokentx&contractaddress=${t}&page=${p}&offset=${OFFSET}&sort=${o}`, (t, skip) => [bytes(t), skip, OFFSET]);
  // Routes that only list one way: their floor is the ascending or descending statement alone.
  const only = (draw: () => Draw, statement: number) => () => ({ ...draw(), statement });
  return [
    {
      name: 'transaction/:hash',
      draw: () => {
        const serial = transaction();
        const hash = transactionHashAt(Math.floor(serial / chain.txPerBlock), serial % chain.txPerBlock);
        return { path: `/api/v1/transaction/${hash}`, statement: 0, values: [bytes(hash)] };
      },
      check: (r) => typeof (r as { hash: unknown }).hash === 'string',
      floor: { candidates: [benchSql([FLOOR.transaction], ['hash'])], rows: (n) => n === 1 },
    },
    {
      name: 'block/getblock',
      draw: () => {
        const number = block();
        return { path: `/api/v1/block/getblock?blockno=${number}`, statement: 0, values: [number] };
      },
      check: (r) => (r as { transactions: unknown[] }).transactions.length === chain.txPerBlock,
      floor: { candidates: [benchSql([FLOOR.block], ['number'])], rows: (n) => n === 1 },
    },
    {
      name: 'account/txlist (heavy address)',
      draw: accountTxlist(() => heavy, zipfPage),
      paged: (p) => accountTxlist(() => heavy, fixed(p)),
      check: isList(OFFSET),
      floor: { candidates: [benchSql(FLOOR.addressTransactions, ['block_number', 'transaction_index']), ours.addressTransactions], rows: isPage },
    },
    {
      name: 'token/:address/holders',
      draw: only(holders(tokenItem, () => Math.min(page(), 9) + 1), 0),
      paged: (p) => holders(tokenItem, fixed(p)),
      check: (r) => (r as { holders: unknown[] }).holders.length === OFFSET,
      floor: { candidates: [benchSql(FLOOR.holders, ['holder'])], rows: isPage },
    },
    {
      name: 'token/:address/transfers',
      // The REST route lists newest first.
      draw: () => ({ ...transfers(tokenItem, zipfPage)(), statement: 1 }),
      paged: (p) => () => ({ ...transfers(tokenItem, fixed(p))(), statement: 1 }),
      check: isList(OFFSET),
      floor: { candidates: [benchSql(FLOOR.tokenTransfers, ['block_number', 'log_index', 'batch_index']), ours.tokenTransfers], rows: isPage },
    },
    {
      name: 'contract/:address/events',
      draw: events(tokenItem, zipfPage),
      paged: (p) => events(tokenItem, fixed(p)),
      check: isList(OFFSET),
      floor: { candidates: [benchSql(FLOOR.addressLogs, ['block_number', 'log_index']), ours.events], rows: isPage },
    },
    {
      name: 'Etherscan account txlist',
      draw: etherscanTxlist(() => addressAt(1 + address()), fixed(1)),
      // Cold addresses have a page or two: the deep-page rows read the heavy address's.
      paged: (p) => etherscanTxlist(() => heavy, fixed(p)),
      check: (r) => Array.isArray(r) && r.length > 0,
      floor: { candidates: [benchSql(FLOOR.addressTransactions, ['block_number', 'transaction_index']), ours.addressTransactions], rows: isSome },
    },
    {
      name: 'Etherscan getLogs by address',
      draw: () => ({ ...getLogs(tokenItem, zipfPage)(), statement: 0 }),
      paged: (p) => () => ({ ...getLogs(tokenItem, fixed(p))(), statement: 0 }),
      check: isList(OFFSET),
      floor: { candidates: [benchSql(FLOOR.addressLogs, ['block_number', 'log_index']), ours.getLogs], rows: isPage },
    },
    {
      // A topic search without a contract, on the topic index: each holder's incoming transfers (topic2) across every token.
      name: 'Etherscan getLogs by topic2 alone',
      draw: () => {
        const to = tokenHolderAt(chain, holder());
        return { path: `/api?module=logs&action=getLogs&topic2=0x${to.slice(2).padStart(64, '0')}&page=1&offset=${OFFSET}`, statement: 0, values: [word(to), OFFSET] };
      },
      check: (r) => Array.isArray(r) && r.length > 0,
      floor: { candidates: [benchSql(FLOOR.topic2Logs, ['block_number', 'log_index']), ours.topic2Logs], rows: isSome },
    },
    {
      name: 'Etherscan account tokentx (holder)',
      draw: () => {
        const [at, order] = [tokenHolderAt(chain, holder()), sort()];
        return { path: `/api?module=account&action=tokentx&address=${at}&page=1&offset=${OFFSET}&sort=${order}`, statement: order === 'asc' ? 0 : 1, values: [bytes(at), OFFSET] };
      },
      check: (r) => Array.isArray(r) && r.length > 0,
      floor: { candidates: [benchSql(FLOOR.addressTokenTransfers, ['block_number', 'log_index', 'batch_index']), ours.addressTokenTransfers], rows: isSome },
    },
    {
      name: 'Etherscan account tokentx (token)',
      draw: tokentxOfToken(tokenItem, zipfPage),
      paged: (p) => tokentxOfToken(tokenItem, fixed(p)),
      check: isList(OFFSET),
      floor: { candidates: [benchSql(FLOOR.tokenTransfersWithTransactions, ['block_number', 'log_index', 'batch_index']), ours.tokenTransfersWithTransactions], rows: isPage },
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
  const storage: Storage = postgresStorage({ connectionString: url, schema });
  await storage.init();
  let seconds: number | null = null;
  try {
    const cursor = await storage.getCursor();
    const last = chain.blocks - 1;
    if (cursor !== null && cursor.hash !== blockHashAt(last)) {
      // Only a kept load has a cursor here. Reloading it would cost many minutes (13 at 1M) and
      // lose what another run may still use: the operator decides.
      const why =
        cursor.number > BigInt(last)
          ? `a run's head mover left blocks it did not roll back (roll the schema's storage back to block ${last} to keep the load)`
          : 'a load was interrupted or another chain was written';
      throw new Error(
        `the load kept in schema ${schema} has its cursor at block ${cursor.number} (${cursor.hash}), not at the load's last block ${last}: ${why}. ` +
          `Refusing to drop and reload it; drop it (DROP SCHEMA ${schema} CASCADE) to load afresh.`,
      );
    }
    if (cursor === null) {
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

/** Measures the route named `route` on `base`, drawing requests with `draw`, while `mover` grows the chain a block a second. */
async function measureMoving(mover: HeadMover, route: string, draw: () => Draw, mode: Row['mode'], base: string, pids: number[], warmup: number, duration: number, bytes: number): Promise<Row> {
  const stop = mover.start();
  try {
    return { ...(await measure(`${route}, ${mode}`, base, () => draw().path, pids, warmup, duration)), route, mode, bytes };
  } finally {
    console.log(`  the chain grew ${await stop()} blocks meanwhile`);
  }
}

/**
 * One of the route's floor rows: `sql` run by a prepared-statement loop at the route's concurrency
 * (its requests over `connections` connections), drawn as its requests are, while the head moves.
 */
async function measureFloor(mover: HeadMover, route: Route, sql: FloorSql, connections: number, url: string, schema: string, duration: number): Promise<Row> {
  const mode = `floor: ${sql.label}, ${connections} conn.` as const;
  console.log(`${route.name}, ${mode}: ${WARMUP_SECONDS} s warm-up + ${duration} s…`);
  const stop = mover.start();
  try {
    const { meter: disturbance, ...result } = await statementLoop({
      url,
      schema,
      statements: sql.statements,
      draw: () => {
        const { statement, values } = route.draw();
        return [statement, sql.values ? sql.values(values) : values];
      },
      workers: CONNECTIONS,
      connections,
      warmupSeconds: WARMUP_SECONDS,
      seconds: duration,
      expectRows: route.floor.rows,
      meter: () => startCpuMeter(() => postgresPids()),
    });
    return { ...result, route: route.name, mode, bytes: 0, disturbance };
  } finally {
    console.log(`  the chain grew ${await stop()} blocks meanwhile`);
  }
}

/**
 * Checks that each floor candidate of `route` after the first returns the same rows, in the same
 * order, as the first, over {@link SAME_ROWS_DRAWS} of its draws (half at the deep page where it
 * has one); run while the head is still, so every candidate reads the same chain.
 */
async function checkSameRows(route: Route, url: string, schema: string): Promise<void> {
  const [first, ...others] = route.floor.candidates;
  if (first === undefined || others.length === 0) return;
  const draws = Array.from({ length: SAME_ROWS_DRAWS }, (_, i) => (route.paged && i % 2 === 1 ? route.paged(DEEP_PAGE) : route.draw)());
  await inSchema(url, schema, async (client) => {
    /** The identities of the rows `sql` returns for a draw, as one text. */
    const rowsOf = async (sql: FloorSql, { statement, values }: Draw) => {
      const result = await client.query<unknown[]>({ text: sql.statements[statement]!, values: sql.values ? sql.values(values) : values, rowMode: 'array' });
      const at = sql.identity.map((name) => result.fields.findIndex((field) => field.name === name));
      if (at.includes(-1)) throw new Error(`${route.name}: the ${sql.label} floor has no column ${sql.identity[at.indexOf(-1)]}`);
      return JSON.stringify(result.rows.map((row) => at.map((i) => (Buffer.isBuffer(row[i]) ? row[i].toString('hex') : String(row[i])))));
    };
    for (const draw of draws) {
      const expected = await rowsOf(first, draw);
      for (const other of others) {
        if ((await rowsOf(other, draw)) !== expected) throw new Error(`${route.name}: the ${other.label} floor does not return the rows the ${first.label} floor does, for ${draw.path}`);
      }
    }
  });
}

/** Bare Fastify answering `body` from memory: the baseline of the route of that name as shipped. */
async function bare(route: string, body: string, duration: number): Promise<Row> {
  // The body goes by file: a page can outgrow what one command-line argument may hold.
  const dir = await mkdtemp(join(tmpdir(), 'chainlens-bench-'));
  try {
    const file = join(dir, 'body.json');
    await writeFile(file, body);
    return await withServer('bare.ts', ['fastify', 'application/json; charset=utf-8', `@${file}`], async (server) => ({
      ...(await measure(`bare Fastify, ${route} bytes (${Buffer.byteLength(body)})`, server.url, () => `/api/v1/transaction/${transactionHashAt(0, 0)}`, [server.pid], WARMUP_SECONDS, duration)),
      route,
      mode: 'bare' as const,
      bytes: Buffer.byteLength(body),
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Loads `base` with a fresh `draw` for every request (a fixed list, cycled, would turn the tail hot); any failed request fails the run. */
async function measure(name: string, base: string, draw: () => string, pids: number[], warmup: number, duration: number) {
  console.log(`${name}: ${warmup} s warm-up + ${duration} s…`);
  const meter = startCpuMeter(() => [...pids, ...postgresPids()]);
  const result = await autocannon({
    url: base + draw(),
    connections: CONNECTIONS,
    duration,
    warmup: { connections: CONNECTIONS, duration: warmup },
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
