/**
 * Soak: the runnable server (`npm start`: embedded dev chain, a block a second with demo activity,
 * Postgres storage in a schema of its own, so the process's memory is the server's and not the
 * growing chain's) under mixed traffic for `BENCH_SOAK_MINUTES` (default 10): REST reads, JSON-RPC
 * and GraphQL at a steady rate, and 1,000 WebSocket subscribers (half on `blocks`, half on
 * `address_transactions` of the demo's busy accounts). Reported per window of
 * `BENCH_SOAK_WINDOW_SECONDS`: requests, non-2xx answers (429s apart), p99 latency, the server's
 * RSS, and the blocks every subscriber received. Targets: 0 errors other than 429, no socket
 * lost, and RSS at the end within 10% of RSS after the warm-up window (each the mean of three windows).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import autocannon, { type Request, type Result } from 'autocannon';
import WebSocket from 'ws';
import { devAccounts } from '@chainlens/devchain';
import { envInt } from './lib/env.js';
import { benchDatabase, dropSchema, type BenchDatabase } from './lib/postgres.js';
import { describeMachine, printTable, writeResults } from './lib/report.js';
import { residentMiB } from './lib/cpu-meter.js';

const SUBSCRIBERS = 1_000;
const RATE_PER_SECOND = 200;
const CONNECTIONS = 20;
const RSS_GROWTH_LIMIT = 0.1;

interface Window {
  minute: number;
  requests: number;
  errors: number;
  tooMany: number;
  p99Ms: number;
  rssMiB: number;
  /** Fewest and most `blocks` messages one subscriber got in the window. */
  blocksMin: number;
  blocksMax: number;
}

/** Runs the soak, prints and saves it; resolves whether every target was met. */
export async function runSoak(): Promise<boolean> {
  const minutes = envInt('BENCH_SOAK_MINUTES', 10);
  const windowSeconds = envInt('BENCH_SOAK_WINDOW_SECONDS', 30);
  const machine = describeMachine();
  const database = await benchDatabase();
  const schema = `bench_soak_${randomBytes(4).toString('hex')}`;
  const server = await startServer(database, schema);
  const sockets: WebSocket[] = [];
  let socketErrors = 0;
  try {
    const addresses = devAccounts(10).map((account) => account.address.toLowerCase());
    const blocksSeen = new Map<WebSocket, number>();
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const socket = await open(`${server.url.replace('http', 'ws')}/ws`);
      socket.on('error', () => socketErrors++);
      socket.on('close', () => socketErrors++);
      const onBlocks = i % 2 === 0;
      if (onBlocks) blocksSeen.set(socket, 0);
      socket.on('message', (data) => {
        if (onBlocks && (JSON.parse(String(data)) as { channel?: string }).channel === 'blocks') blocksSeen.set(socket, blocksSeen.get(socket)! + 1);
      });
      socket.send(JSON.stringify(onBlocks ? { event: 'subscribe', channel: 'blocks' } : { event: 'subscribe', channel: 'address_transactions', address: addresses[i % addresses.length] }));
      sockets.push(socket);
    }
    console.log(`${SUBSCRIBERS} subscribers connected; ${minutes} min of traffic at ${RATE_PER_SECOND} req/s in ${windowSeconds} s windows`);

    const windows: Window[] = [];
    const end = Date.now() + minutes * 60_000;
    while (Date.now() < end) {
      for (const socket of blocksSeen.keys()) blocksSeen.set(socket, 0);
      const result = await autocannon({
        url: server.url,
        connections: CONNECTIONS,
        overallRate: RATE_PER_SECOND,
        duration: Math.min(windowSeconds, Math.ceil((end - Date.now()) / 1000)),
        requests: requests(addresses[1]!),
      });
      const counts = [...blocksSeen.values()];
      windows.push({
        minute: Number(((windows.length + 1) * (windowSeconds / 60)).toFixed(1)),
        requests: result.requests.total ?? 0,
        errors: result.errors + result.timeouts + failedAnswers(result),
        tooMany: tooMany(result),
        p99Ms: result.latency.p99,
        rssMiB: Math.round(residentMiB(server.process.pid!)),
        blocksMin: Math.min(...counts),
        blocksMax: Math.max(...counts),
      });
      const last = windows.at(-1)!;
      console.log(`window ${windows.length}: ${last.requests} requests, ${last.errors} errors, p99 ${last.p99Ms} ms, RSS ${last.rssMiB} MiB, blocks per subscriber ${last.blocksMin}-${last.blocksMax}`);
    }

    printTable(
      `Soak: ${RATE_PER_SECOND} req/s mixed REST, JSON-RPC and GraphQL, ${SUBSCRIBERS} WebSocket subscribers, a block a second`,
      ['minute', 'requests', 'errors (non-429)', '429', 'p99 ms', 'RSS MiB', 'blocks/subscriber'],
      windows.map((w) => [w.minute, w.requests, w.errors, w.tooMany, w.p99Ms, w.rssMiB, `${w.blocksMin}-${w.blocksMax}`]),
    );
    const errors = windows.reduce((sum, w) => sum + w.errors, 0);
    // RSS saws with the garbage collector: each end is the mean of three windows, the first
    // three after the warm-up window against the last three.
    const warm = meanRss(windows.slice(1, 4));
    const last = meanRss(windows.slice(-3));
    const growth = last / warm - 1;
    const starved = windows.slice(1).some((w) => w.blocksMin === 0);
    const passed = errors === 0 && socketErrors === 0 && !starved && growth <= RSS_GROWTH_LIMIT;
    console.log(
      `\nnon-429 errors ${errors}, sockets lost ${socketErrors}, every subscriber got blocks in every window after the first: ${!starved}, ` +
        `RSS (mean of 3 windows) ${warm.toFixed(0)} → ${last.toFixed(0)} MiB (${(growth * 100).toFixed(1)}%, limit ${RSS_GROWTH_LIMIT * 100}%): ${passed ? 'PASS' : 'FAIL'}`,
    );
    await writeResults('soak', { machine, settings: { minutes, windowSeconds, ratePerSecond: RATE_PER_SECOND, subscribers: SUBSCRIBERS }, windows, errors, socketErrors, rssGrowth: growth, passed });
    return passed;
  } finally {
    for (const socket of sockets) {
      socket.removeAllListeners('close');
      socket.terminate();
    }
    await server.stop();
    await dropSchema(database.url, schema);
    await database.stop();
  }
}

/** The mixed traffic: each request of the list in turn, on every connection. */
function requests(address: string): Request[] {
  const json = { 'content-type': 'application/json' };
  return [
    { method: 'GET', path: '/api/v1/block/getblock?blockno=latest' },
    { method: 'GET', path: `/api/v1/account/txlist?address=${address}&page=1&offset=20&sort=desc` },
    { method: 'GET', path: `/api/v1/account/balance?address=${address}` },
    { method: 'GET', path: '/api/v1/health' },
    { method: 'POST', path: '/', headers: json, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }) },
    { method: 'POST', path: '/', headers: json, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'chain_getFinality', params: [] }) },
    {
      method: 'POST',
      path: '/graphql',
      headers: json,
      body: JSON.stringify({ query: '{ blockchain { latestBlock { number hash gasUsed } networkStats { tps totalTransactions } } }' }),
    },
  ];
}

function meanRss(windows: readonly Window[]): number {
  return windows.reduce((sum, w) => sum + w.rssMiB, 0) / windows.length;
}

function tooMany(result: Result): number {
  return result.statusCodeStats['429']?.count ?? 0;
}

/** Answers other than 2xx and 429. */
function failedAnswers(result: Result): number {
  return Object.entries(result.statusCodeStats).reduce((sum, [code, { count }]) => (code.startsWith('2') || code === '429' ? sum : sum + count), 0);
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** `npm start`'s server on a free port, resolved once it prints its URL. */
async function startServer(database: BenchDatabase, schema: string): Promise<{ url: string; process: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server/src/main.ts'], {
    env: { ...process.env, DATABASE_URL: database.url, EXPLORER_DB_SCHEMA: schema, PORT: '0', HOST: '127.0.0.1', EXPLORER_RATE_LIMITS: 'off', EXPLORER_WS_MAX_CONNECTIONS_PER_IP: String(SUBSCRIBERS), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const found = /ChainLens listening on (\S+)/.exec(line);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
  });
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
