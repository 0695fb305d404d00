/**
 * Catch-up indexing speed of ChainLens against the "node limit": a plain fetch loop reading the
 * same blocks, receipts and (where a transaction ran code) call traces with the same number of
 * blocks in flight. The ratio shows what the indexer itself (decoding, ordering, writing) costs
 * on top of the node. The same blocks are
 * then indexed into Postgres, measured against memory storage in the same run. A second range of
 * blocks full of ERC-20 transfers (every transaction a `Transfer` event, so token transfers,
 * holder balances and counts are kept too) is measured against its own node limit.
 */
import { randomBytes } from 'node:crypto';
import { createExplorer, resolveConfig, type Storage } from '@chainlens/core';
import { deployDemo, devAccount, DEV_ACCOUNT_COUNT, fillBlocks, startAnvil } from '@chainlens/core/devchain';
import { encodeFunctionData, parseAbi, type Address } from 'viem';
import { memoryStorage } from '@chainlens/storage-memory';
import { postgresStorage } from '@chainlens/storage-postgres';
import { disturbed, DISTURBED_PERCENT, postgresPids, startCpuMeter, type Disturbance } from './lib/cpu-meter.js';
import { envInt } from './lib/env.js';
import { benchDatabase, dropSchema } from './lib/postgres.js';
import { describeMachine, percent, printTable, verdict, writeResults } from './lib/report.js';
import { quantity, rpc } from './lib/rpc.js';
import { waitForCursor } from './lib/wait-for-cursor.js';

/** Memory storage against the node limit. */
const TARGET = 0.8;
/** Postgres against memory storage. */
const POSTGRES_TARGET = 0.5;
/** Memory storage against the node limit, on blocks of token transfers. */
const TOKEN_TARGET = 0.6;
/** Room for ~47,000 transfers per block: BENCH_TXS is never capped by anvil's default 30M. */
const GAS_LIMIT = '1000000000';

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
  seconds: number;
  blocksPerSecond: number;
  /** CPU this process spent (the node's own CPU is not included): what reading, or indexing, costs. */
  cpuSeconds: number;
  disturbance: Disturbance;
}

/** Runs the benchmark, prints and saves it; resolves whether the target was met. */
export async function runIngest(): Promise<boolean> {
  const blocks = envInt('BENCH_BLOCKS', 1_000);
  const txPerBlock = envInt('BENCH_TXS', 50);
  const machine = describeMachine();
  console.log(`load average ${machine.loadAverage1m} on ${machine.cores} cores before the run`);
  const anvil = await startAnvil({ args: ['--gas-limit', GAS_LIMIT] });
  const database = await benchDatabase();
  const runs: Run[] = [];
  let concurrency: number;
  try {
    const first = BigInt(await rpc<string>(anvil.rpcUrl, 'eth_blockNumber')) + 1n;
    console.log(`filling ${blocks} blocks × ${txPerBlock} transactions…`);
    const fillStarted = performance.now();
    await fillBlocks(anvil, { blocks, txPerBlock });
    console.log(`filled in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`);

    const range: Range = { rpcUrl: anvil.rpcUrl, anvilPid: anvil.pid, first, last: first + BigInt(blocks - 1), txPerBlock };
    // The indexer's own default, so the baseline keeps exactly as many blocks in flight.
    concurrency = resolveConfig({ rpcUrl: anvil.rpcUrl, storage: memoryStorage() }).indexer.concurrency;
    // The node limit runs before and after ChainLens; their mean evens out drift on a noisy machine.
    runs.push(await nodeLimit('node limit (before)', range, concurrency));
    runs.push(await chainLens('ChainLens, memory', range, memoryStorage));
    runs.push(await nodeLimit('node limit (after)', range, concurrency));
    const schema = `bench_ingest_${randomBytes(4).toString('hex')}`;
    try {
      runs.push(await chainLens('ChainLens, Postgres', range, () => postgresStorage({ connectionString: database.url, schema })));
    } finally {
      await dropSchema(database.url, schema);
    }

    console.log(`filling ${blocks} blocks × ${txPerBlock} ERC-20 transfers…`);
    const token = await fundedToken(anvil.rpcUrl);
    const tokenFirst = BigInt(await rpc<string>(anvil.rpcUrl, 'eth_blockNumber')) + 1n;
    await fillBlocks(anvil, { blocks, txPerBlock, erc20: token });
    const tokenRange: Range = { ...range, first: tokenFirst, last: tokenFirst + BigInt(blocks - 1) };
    runs.push(await nodeLimit('node limit, ERC-20 blocks (before)', tokenRange, concurrency));
    runs.push(await chainLens('ChainLens, memory, ERC-20 blocks', tokenRange, memoryStorage));
    runs.push(await nodeLimit('node limit, ERC-20 blocks (after)', tokenRange, concurrency));
  } finally {
    await anvil.stop();
    await database.stop();
  }

  const [before, indexed, after, postgres, tokenBefore, tokenIndexed, tokenAfter] = runs as [Run, Run, Run, Run, Run, Run, Run];
  const baseline = (before.blocksPerSecond + after.blocksPerSecond) / 2;
  const tokenBaseline = (tokenBefore.blocksPerSecond + tokenAfter.blocksPerSecond) / 2;
  const tokenRatio = tokenIndexed.blocksPerSecond / tokenBaseline;
  const tokenResult = verdict(tokenRatio, TOKEN_TARGET);
  const ratio = indexed.blocksPerSecond / baseline;
  const postgresRatio = postgres.blocksPerSecond / indexed.blocksPerSecond;
  const result = verdict(ratio, TARGET);
  const postgresResult = verdict(postgresRatio, POSTGRES_TARGET);
  printTable(
    `Catch-up of ${blocks} blocks × ${txPerBlock} transactions, ${concurrency} blocks in flight`,
    ['run', 'seconds', 'blocks/s', 'client CPU s', 'other CPU %', 'steal %'],
    [
      ...runs.map((r) => [
        disturbed(r.disturbance) ? `${r.name} *` : r.name,
        r.seconds,
        Math.round(r.blocksPerSecond),
        r.cpuSeconds,
        r.disturbance.othersPercent,
        r.disturbance.stealPercent,
      ]),
      ['node limit (mean)', '', Math.round(baseline), '', '', ''],
      ['node limit, ERC-20 blocks (mean)', '', Math.round(tokenBaseline), '', '', ''],
    ],
  );
  if (runs.some((r) => disturbed(r.disturbance))) {
    console.log(`* over ${DISTURBED_PERCENT}% of the CPU went to other processes or guests during this run: rerun on a quiet machine`);
  }
  printTable('ChainLens share of the node limit, and Postgres against memory', ['ratio', 'value', 'target', 'verdict'], [
    ['ChainLens memory / node limit (mean)', percent(ratio), `≥ ${percent(TARGET)}`, result],
    ['ChainLens Postgres / ChainLens memory', percent(postgresRatio), `≥ ${percent(POSTGRES_TARGET)}`, postgresResult],
    ['ChainLens memory / node limit, ERC-20 blocks', percent(tokenRatio), `≥ ${percent(TOKEN_TARGET)}`, tokenResult],
  ]);
  await writeResults('ingest', {
    machine,
    settings: { blocks, txPerBlock, concurrency, database: database.source },
    runs,
    baselineBlocksPerSecond: baseline,
    ratios: [
      { name: 'memory / node limit', ratio, target: TARGET, verdict: result },
      { name: 'Postgres / memory', ratio: postgresRatio, target: POSTGRES_TARGET, verdict: postgresResult },
      { name: 'memory / node limit, ERC-20 blocks', ratio: tokenRatio, target: TOKEN_TARGET, verdict: tokenResult },
    ],
  });
  return result === 'PASS' && postgresResult === 'PASS' && tokenResult === 'PASS';
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
 * Reads every block and its receipts with `concurrency` blocks in flight, in whatever order they
 * complete (the best case for the node), checking each block is complete.
 */
async function nodeLimit(name: string, { rpcUrl, anvilPid, first, last, txPerBlock }: Range, concurrency: number): Promise<Run> {
  console.log(`${name}…`);
  let next = first;
  const worker = async () => {
    while (next <= last) {
      const tag = quantity(next++);
      const [block, receipts] = await Promise.all([
        rpc<{ hash: string; transactions: { to: string | null; input: string }[] } | null>(rpcUrl, 'eth_getBlockByNumber', [tag, true]),
        rpc<{ status: string; gasUsed: string }[] | null>(rpcUrl, 'eth_getBlockReceipts', [tag]),
      ]);
      if (block?.transactions.length !== txPerBlock || receipts?.length !== txPerBlock) {
        throw new Error(`block ${BigInt(tag)} came back without its ${txPerBlock} transactions and receipts`);
      }
      // Traced as ChainLens traces: when a transaction ran code (not a plain 21,000-gas transfer).
      const ranCode = receipts.some((r, i) => r.status === '0x1' && !(block.transactions[i]!.to && block.transactions[i]!.input === '0x' && BigInt(r.gasUsed) === 21_000n));
      const traces = ranCode ? await rpc<unknown[] | null>(rpcUrl, 'debug_traceBlockByHash', [block.hash, { tracer: 'callTracer' }]) : [];
      if (ranCode && traces?.length !== txPerBlock) {
        throw new Error(`block ${BigInt(tag)} came back without its ${txPerBlock} traces`);
      }
    }
  };
  const started = clock(anvilPid);
  await Promise.all(Array.from({ length: concurrency }, worker));
  return timed(name, started, first, last);
}

/** Indexes the range into a new storage from an empty start and times it until the last block is stored. */
async function chainLens(name: string, { rpcUrl, anvilPid, first, last, txPerBlock }: Range, storage: () => Storage): Promise<Run> {
  console.log(`${name}…`);
  const explorer = await createExplorer({ rpcUrl, storage: storage(), startBlock: first, logLevel: 'silent' });
  try {
    const started = clock(anvilPid);
    await explorer.start();
    await waitForCursor(explorer, last);
    const run = timed(name, started, first, last);
    const stored = await explorer.storage.getBlockTransactionHashes(last);
    if (stored.length !== txPerBlock) throw new Error(`${name} stored ${stored.length} of block ${last}'s ${txPerBlock} transactions`);
    return run;
  } finally {
    await explorer.close();
  }
}

/** Starts the clocks of a run (wall, this process's CPU, the machine's CPU) for {@link timed}. */
function clock(anvilPid: number) {
  return { wall: performance.now(), cpu: process.cpuUsage(), meter: startCpuMeter(() => [anvilPid, ...postgresPids()]) };
}

/** Ends a run begun with {@link clock}: its rate over blocks `first`…`last`. */
function timed(name: string, started: ReturnType<typeof clock>, first: bigint, last: bigint): Run {
  const seconds = (performance.now() - started.wall) / 1000;
  const cpu = process.cpuUsage(started.cpu);
  return { name, seconds, blocksPerSecond: Number(last - first + 1n) / seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, disturbance: started.meter() };
}
