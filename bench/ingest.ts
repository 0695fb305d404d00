/**
 * Indexing speed as users run it: `npm start` (the built server, its defaults, every feature on,
 * tracing included, the default log level; nothing of the caller's environment but `PATH`)
 * following an anvil node, from process start until the target block is served, against the
 * "node limit": a plain `fetch` loop reading the same blocks and receipts (no traces: what a block
 * needs before it can be served) as ChainLens asks for them, one batch request per block, with as
 * many blocks in flight, in the same run. The start-up (process start until it listens) is judged
 * on its own.
 * Blocks full of ERC-20 transfers are indexed into memory and into Postgres; blocks of plain ETH
 * transfers (nothing to trace) into memory. Traces are read behind the blocks: the time until
 * they too reach the target block is reported against its own target.
 *
 * Each kind of run is repeated `BENCH_REPEAT` times (3), in turn, and judged by its median.
 * `BENCH_BLOCKS` and `BENCH_TXS` size the ranges (500 × 50); `BENCH_CPU_PROF=<dir>` writes a V8
 * CPU profile of each server run there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from '@chainlens/core';
import { deployDemo, devAccount, DEV_ACCOUNT_COUNT, fillBlocks, startAnvil } from '@chainlens/devchain';
import { memoryStorage } from '@chainlens/storage-memory';
import { encodeFunctionData, parseAbi, type Address } from 'viem';
import { cpuMillisOf, disturbed, DISTURBED_PERCENT, postgresPids, startCpuMeter, type Disturbance } from './lib/cpu-meter.js';
import { envInt } from './lib/env.js';
import { benchDatabase, dropSchema } from './lib/postgres.js';
import { describeMachine, percent, printTable, verdict, writeResults } from './lib/report.js';
import { quantity, rpc, rpcBatch } from './lib/rpc.js';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Memory storage against the node limit, from process start. */
const MEMORY_TARGET = 0.6;
/** Memory storage against the node limit, from the listening line on. */
const MEMORY_AFTER_START_TARGET = 0.85;
/** Postgres storage against the node limit, from process start. */
const POSTGRES_TARGET = 0.45;
/** Seconds from the target block served until its traces are stored too. */
const TRACES_TARGET_SECONDS = 60;
/** Blocks of plain transfers against blocks of token transfers, in blocks per second: at least as fast. */
const PLAIN_TARGET = 1;
/** Seconds from process start until the server listens (median of each kind of run). */
const START_TARGET_SECONDS = 1;
const NODE_LIMIT = 'node limit, ERC-20 blocks';
const MEMORY = 'ChainLens, memory, ERC-20 blocks';
const POSTGRES = 'ChainLens, Postgres, ERC-20 blocks';
const PLAIN_NODE_LIMIT = 'node limit, ETH blocks';
const PLAIN_MEMORY = 'ChainLens, memory, ETH blocks';
/** Room for ~47,000 transfers per block: BENCH_TXS is never capped by anvil's default 30M. */
const GAS_LIMIT = '1000000000';
/**
 * Between polls of the target block and of `/health`, with an access token (npm start allows
 * 1,000 a minute): each costs the server a request (~1 ms of a busy core here), and adds half of
 * it on average to the time measured.
 */
const POLL_MS = 50;
/** How far before the target block the polls quicken, and to what. */
const NEAR_BLOCKS = 16n;
const FINAL_POLL_MS = 2;

/** The filled blocks `first`…`last`, each holding `txPerBlock` transactions. */
interface Range {
  rpcUrl: string;
  /** anvil's process, whose CPU counts as the benchmark's own. */
  anvilPid: number;
  first: bigint;
  last: bigint;
  txPerBlock: number;
}

interface Run {
  name: string;
  /** Process start (for the node limit: the first request) until the last block is read or served. */
  seconds: number;
  /** Process start until it listens; 0 for the node limit. */
  startSeconds: number;
  /** Last block served until its traces are stored; `null` for the node limit. */
  tracesSeconds: number | null;
  /** CPU seconds the node spent on the run, and the server process (the node limit: the fetch loop's own process). */
  nodeCpuSeconds: number;
  clientCpuSeconds: number;
  disturbance: Disturbance;
}

/** Runs the benchmark, prints and saves it; resolves whether every target was met. */
export async function runIngest(): Promise<boolean> {
  const blocks = envInt('BENCH_BLOCKS', 500);
  const txPerBlock = envInt('BENCH_TXS', 50);
  const repeats = envInt('BENCH_REPEAT', 3);
  const machine = describeMachine();
  console.log(`load average ${machine.loadAverage1m} on ${machine.cores} cores before the run`);
  const anvil = await startAnvil({ args: ['--gas-limit', GAS_LIMIT] });
  const database = await benchDatabase();
  const runs: Run[] = [];
  // The indexer's own default, so the baseline keeps exactly as many blocks in flight.
  const concurrency = resolveConfig({ rpcUrl: anvil.rpcUrl, storage: memoryStorage() }).indexer.concurrency;
  try {
    const token = await fundedToken(anvil.rpcUrl);
    const fill = async (what: string, erc20?: Address): Promise<Range> => {
      const first = BigInt(await rpc<string>(anvil.rpcUrl, 'eth_blockNumber')) + 1n;
      console.log(`filling ${blocks} blocks × ${txPerBlock} ${what}…`);
      const started = performance.now();
      await fillBlocks(anvil, { blocks, txPerBlock, erc20 });
      console.log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return { rpcUrl: anvil.rpcUrl, anvilPid: anvil.pid, first, last: first + BigInt(blocks - 1), txPerBlock };
    };
    const tokens = await fill('ERC-20 transfers', token);
    const plain = await fill('ETH transfers');

    // Every kind of run in turn, `repeats` times: the medians even out drift and noise on a shared machine.
    for (let round = 1; round <= repeats; round++) {
      runs.push(await nodeLimit(NODE_LIMIT, tokens, concurrency));
      runs.push(await chainLens(MEMORY, tokens, {}));
      const schema = `bench_ingest_${randomBytes(4).toString('hex')}`;
      try {
        runs.push(await chainLens(POSTGRES, tokens, { DATABASE_URL: database.url, EXPLORER_DB_SCHEMA: schema }));
      } finally {
        await dropSchema(database.url, schema);
      }
      runs.push(await nodeLimit(PLAIN_NODE_LIMIT, plain, concurrency));
      runs.push(await chainLens(PLAIN_MEMORY, plain, {}));
    }
  } finally {
    await anvil.stop();
    await database.stop();
  }

  const [limitRun, memory, postgres, plainLimit, plainMemory] = [NODE_LIMIT, MEMORY, POSTGRES, PLAIN_NODE_LIMIT, PLAIN_MEMORY].map((name) => median(runs.filter((run) => run.name === name))) as [Run, Run, Run, Run, Run];
  const limit = limitRun.seconds;
  const ratios = [
    { name: 'memory / node limit, from process start', ratio: limit / memory.seconds, target: MEMORY_TARGET },
    { name: 'memory / node limit, after start-up', ratio: limit / (memory.seconds - memory.startSeconds), target: MEMORY_AFTER_START_TARGET },
    { name: 'Postgres / node limit, from process start', ratio: limit / postgres.seconds, target: POSTGRES_TARGET },
    { name: 'ETH blocks / ERC-20 blocks, memory (blocks/s)', ratio: memory.seconds / plainMemory.seconds, target: PLAIN_TARGET },
  ].map((r) => ({ ...r, verdict: verdict(r.ratio, r.target) }));
  // The slowest of each kind's runs: every run must meet this target.
  const traces = [MEMORY, POSTGRES, PLAIN_MEMORY].map((name) => {
    const seconds = Math.max(...runs.filter((run) => run.name === name).map((run) => run.tracesSeconds!));
    return { name, seconds, verdict: seconds <= TRACES_TARGET_SECONDS ? 'PASS' : 'FAIL' };
  });
  const startUps = [memory, postgres, plainMemory].map((run) => ({ name: run.name, seconds: run.startSeconds, verdict: run.startSeconds < START_TARGET_SECONDS ? 'PASS' : 'FAIL' }));
  const perSecond = (run: Run) => Math.round(blocks / run.seconds);
  printTable(
    `Indexing ${blocks} blocks × ${txPerBlock} transactions as npm start runs it, ${concurrency} blocks in flight`,
    ['run', 'seconds', 'blocks/s', 'start-up s', 'traces after s', 'node CPU s', 'client CPU s', 'other CPU %', 'steal %'],
    [
      ...runs.map((r) => [
        disturbed(r.disturbance) ? `${r.name} *` : r.name,
        r.seconds,
        perSecond(r),
        r.startSeconds,
        r.tracesSeconds ?? '',
        r.nodeCpuSeconds,
        r.clientCpuSeconds,
        r.disturbance.othersPercent,
        r.disturbance.stealPercent,
      ]),
    ],
  );
  printTable(
    `Medians of ${repeats} runs each`,
    ['run', 'seconds', 'blocks/s', 'start-up s', 'traces after s', 'node CPU s', 'client CPU s'],
    [limitRun, memory, postgres, plainLimit, plainMemory].map((r) => [r.name, r.seconds, perSecond(r), r.startSeconds, r.tracesSeconds ?? '', r.nodeCpuSeconds, r.clientCpuSeconds]),
  );
  if (runs.some((r) => disturbed(r.disturbance))) {
    console.log(`* over ${DISTURBED_PERCENT}% of the CPU went to other processes or guests during this run: rerun on a quiet machine`);
  }
  printTable('ChainLens against the node limit', ['ratio', 'value', 'target', 'verdict'], ratios.map((r) => [r.name, percent(r.ratio), `≥ ${percent(r.target)}`, r.verdict]));
  printTable(`Traces stored through the last block, after it was served (slowest run)`, ['run', 'seconds', 'target', 'verdict'], traces.map((t) => [t.name, t.seconds, `≤ ${TRACES_TARGET_SECONDS}`, t.verdict]));
  printTable(`Start-up: process start until listening (median)`, ['run', 'seconds', 'target', 'verdict'], startUps.map((s) => [s.name, s.seconds, `< ${START_TARGET_SECONDS}`, s.verdict]));
  console.log(`\nETH blocks: node limit ${perSecond(plainLimit)} blocks/s, ChainLens ${perSecond(plainMemory)} blocks/s (${percent(plainLimit.seconds / plainMemory.seconds)} of it)`);
  await writeResults('ingest', { machine, settings: { blocks, txPerBlock, concurrency, repeats, database: database.source }, runs, medians: [limitRun, memory, postgres, plainLimit, plainMemory], ratios, traces, startUps });
  return [...ratios, ...traces, ...startUps].every((r) => r.verdict === 'PASS');
}

/** Deploys the demo contracts and mints their ERC-20 to every dev account; resolves the token. */
async function fundedToken(rpcUrl: string): Promise<Address> {
  const demo = await deployDemo({ rpcUrl });
  const owner = devAccount(0);
  const mint = parseAbi(['function mint(address to, uint256 amount)']);
  const chainId = Number(await rpc<string>(rpcUrl, 'eth_chainId'));
  let nonce = Number(await rpc<string>(rpcUrl, 'eth_getTransactionCount', [owner.address, 'pending']));
  for (let i = 0; i < DEV_ACCOUNT_COUNT; i++) {
    const data = encodeFunctionData({ abi: mint, functionName: 'mint', args: [devAccount(i).address, 10n ** 30n] });
    const raw = await owner.signTransaction({ chainId, type: 'eip1559', nonce: nonce++, to: demo.contracts.token, data, gas: 100_000n, maxFeePerGas: 10n ** 11n, maxPriorityFeePerGas: 10n ** 9n });
    await rpc(rpcUrl, 'eth_sendRawTransaction', [raw]);
  }
  // anvil answers a send before it mines it: wait for the pool to empty.
  while ((await rpc<{ pending: string }>(rpcUrl, 'txpool_status')).pending !== '0x0') await new Promise((resolve) => setTimeout(resolve, 20));
  return demo.contracts.token;
}

/**
 * Reads every block and its receipts, the two in one batch request as ChainLens asks for them,
 * with `concurrency` blocks in flight, in whatever order they complete (the best case for the
 * node), checking each block is complete.
 */
async function nodeLimit(name: string, { rpcUrl, anvilPid, first, last, txPerBlock }: Range, concurrency: number): Promise<Run> {
  console.log(`${name}…`);
  let next = first;
  const worker = async () => {
    while (next <= last) {
      const tag = quantity(next++);
      const [block, receipts] = (await rpcBatch(rpcUrl, [
        ['eth_getBlockByNumber', [tag, true]],
        ['eth_getBlockReceipts', [tag]],
      ])) as [{ transactions: unknown[] } | null, unknown[] | null];
      if (block?.transactions.length !== txPerBlock || receipts?.length !== txPerBlock) {
        throw new Error(`block ${BigInt(tag)} came back without its ${txPerBlock} transactions and receipts`);
      }
    }
  };
  const meter = startCpuMeter([anvilPid]);
  const [nodeCpu, ownCpu] = [cpuMillisOf(anvilPid), process.cpuUsage()];
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const own = process.cpuUsage(ownCpu);
  return {
    name,
    seconds: (performance.now() - started) / 1000,
    startSeconds: 0,
    tracesSeconds: null,
    nodeCpuSeconds: (cpuMillisOf(anvilPid) - nodeCpu) / 1000,
    clientCpuSeconds: (own.user + own.system) / 1e6,
    disturbance: meter(),
  };
}

/**
 * Runs `npm start`'s launcher against the node from the range's first block, with `env` beside
 * its defaults (nothing else of this process's environment but `PATH`: a `DATABASE_URL`,
 * `LOG_LEVEL` or `EXPLORER_*` setting of the caller's would measure another server), and times it: until it listens, until the range's last block is served
 * (`/block/getblock` answers it, with all its transactions), and until `/health` tells its traces
 * are stored too. It polls as a signed-up user (the authenticated tier): a `blocks` channel
 * subscription would cost the server a frame per block, more than the polls.
 */
async function chainLens(name: string, { rpcUrl, anvilPid, first, last, txPerBlock }: Range, env: Record<string, string>): Promise<Run> {
  console.log(`${name}…`);
  const ours = [anvilPid];
  const meter = startCpuMeter(() => [...ours, ...postgresPids()]);
  const nodeCpu = cpuMillisOf(anvilPid);
  const started = performance.now();
  // BENCH_CPU_PROF=<dir>: a V8 CPU profile of each server run, to see where its time goes.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, 'examples/server/start.mjs'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', EXPLORER_RPC_URL: rpcUrl, EXPLORER_START_BLOCK: first.toString(), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  ours.push(child.pid!);
  try {
    const url = await listening(child);
    const listened = performance.now();
    const headers = await signedUp(url);
    await served(url, headers, last, txPerBlock);
    const servedAt = performance.now();
    const disturbance = meter();
    const [nodeCpuSeconds, clientCpuSeconds] = [(cpuMillisOf(anvilPid) - nodeCpu) / 1000, cpuMillisOf(child.pid!) / 1000];
    await traced(url, headers, last);
    return {
      name,
      seconds: (servedAt - started) / 1000,
      startSeconds: (listened - started) / 1000,
      tracesSeconds: (performance.now() - servedAt) / 1000,
      nodeCpuSeconds,
      clientCpuSeconds,
      disturbance,
    };
  } finally {
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  }
}

/** The server's URL, from its `ChainLens listening on …` line. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const onExit = (code: number | null) => reject(new Error(`npm start exited (code ${code}) before listening`));
    lines.on('line', (line) => {
      const url = /^ChainLens listening on (http:\/\/\S+)$/.exec(line)?.[1];
      if (!url) return;
      child.off('exit', onExit);
      resolve(url);
    });
    child.once('exit', onExit);
  });
}

/** Headers of a user signed up on the server just now: polls then count against the authenticated tier. */
async function signedUp(url: string): Promise<Record<string, string>> {
  const user = { email: `bench-${randomBytes(4).toString('hex')}@example.com`, password: randomBytes(16).toString('hex'), name: 'bench' };
  const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await post('/api/v1/auth/register', user);
  const login = (await (await post('/api/v1/auth/login', { email: user.email, password: user.password })).json()) as { result: { access_token: string } | null };
  if (!login.result) throw new Error(`could not sign up on ${url}: ${JSON.stringify(login)}`);
  return { authorization: `Bearer ${login.result.access_token}` };
}

/**
 * Resolves once `/block/getblock` serves block `number` with its `transactions` transactions:
 * polled every {@link POLL_MS} until a block shortly before it is served, then every few ms, so
 * the moment it is served is measured to within those few ms.
 */
async function served(url: string, headers: Record<string, string>, number: bigint, transactions: number): Promise<void> {
  await servedBlock(url, headers, number - NEAR_BLOCKS, POLL_MS);
  const { transactionCount } = await servedBlock(url, headers, number, FINAL_POLL_MS);
  if (transactionCount !== transactions) throw new Error(`block ${number} is served without its ${transactions} transactions`);
}

/** `/block/getblock`'s record of block `number` once served, polled every `intervalMs`. */
async function servedBlock(url: string, headers: Record<string, string>, number: bigint, intervalMs: number): Promise<{ transactionCount: number }> {
  for (;;) {
    const answer = await fetch(`${url}/api/v1/block/getblock?blockno=${number}`, { headers });
    if (answer.status === 200) return ((await answer.json()) as { result: { transactionCount: number } }).result;
    if (answer.status !== 404) throw new Error(`GET /block/getblock answered ${answer.status}`);
    await answer.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Resolves once `/health` tells the traces of block `number` are stored. */
async function traced(url: string, headers: Record<string, string>, number: bigint): Promise<void> {
  for (;;) {
    const health = (await (await fetch(`${url}/api/v1/health`, { headers })).json()) as { result: { tracedBlock: number | null } | null };
    const tracedBlock = health.result?.tracedBlock;
    if (tracedBlock !== null && tracedBlock !== undefined && BigInt(tracedBlock) >= number) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The run of median wall time (the lower middle one of an even count). */
function median(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return sorted[(sorted.length - 1) >> 1]!;
}
