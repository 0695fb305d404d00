/**
 * Catch-up indexing speed of ChainLens against the "node limit": a plain fetch loop reading the
 * same blocks and receipts with the same number of blocks in flight. The ratio shows what the
 * indexer itself (decoding, ordering, writing) costs on top of the node.
 */
import { createExplorer, resolveConfig } from '@chainlens/core';
import { fillBlocks, startAnvil } from '@chainlens/core/devchain';
import { memoryStorage } from '@chainlens/storage-memory';
import { envInt } from './lib/env.js';
import { describeMachine, percent, printTable, verdict, writeResults } from './lib/report.js';
import { quantity, rpc } from './lib/rpc.js';
import { waitForCursor } from './lib/wait-for-cursor.js';

const TARGET = 0.8;
/** Far above 50 transfers × 21 000 gas, so no block size is ever capped by gas. */
const GAS_LIMIT = '1000000000';

/** The filled blocks `first`…`last`, each holding `txPerBlock` transactions. */
interface Range {
  rpcUrl: string;
  first: bigint;
  last: bigint;
  txPerBlock: number;
}

interface Run {
  name: string;
  seconds: number;
  blocksPerSecond: number;
}

/** Runs the benchmark, prints and saves it; resolves whether the target was met. */
export async function runIngest(): Promise<boolean> {
  const blocks = envInt('BENCH_BLOCKS', 1_000);
  const txPerBlock = envInt('BENCH_TXS', 50);
  const machine = describeMachine();
  console.log(`load average ${machine.loadAverage1m} on ${machine.cores} cores before the run`);
  const anvil = await startAnvil({ args: ['--gas-limit', GAS_LIMIT] });
  const runs: Run[] = [];
  let concurrency: number;
  try {
    const first = BigInt(await rpc<string>(anvil.rpcUrl, 'eth_blockNumber')) + 1n;
    console.log(`filling ${blocks} blocks × ${txPerBlock} transactions…`);
    const fillStarted = performance.now();
    await fillBlocks(anvil, { blocks, txPerBlock });
    console.log(`filled in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`);

    const range: Range = { rpcUrl: anvil.rpcUrl, first, last: first + BigInt(blocks - 1), txPerBlock };
    // The indexer's own default, so the baseline keeps exactly as many blocks in flight.
    concurrency = resolveConfig({ rpcUrl: anvil.rpcUrl, storage: memoryStorage() }).indexer.concurrency;
    // The node limit runs before and after ChainLens; their mean evens out drift on a noisy machine.
    runs.push(await nodeLimit('node limit (before)', range, concurrency));
    runs.push(await chainLens(range));
    runs.push(await nodeLimit('node limit (after)', range, concurrency));
  } finally {
    await anvil.stop();
  }

  const [before, indexed, after] = runs as [Run, Run, Run];
  const baseline = (before.blocksPerSecond + after.blocksPerSecond) / 2;
  const ratio = indexed.blocksPerSecond / baseline;
  const result = verdict(ratio, TARGET);
  printTable(
    `Catch-up of ${blocks} blocks × ${txPerBlock} transactions, ${concurrency} blocks in flight`,
    ['run', 'seconds', 'blocks/s'],
    [...runs.map((r) => [r.name, r.seconds, Math.round(r.blocksPerSecond)]), ['node limit (mean)', '', Math.round(baseline)]],
  );
  printTable('ChainLens share of the node limit', ['ratio', 'value', 'target', 'verdict'], [
    ['ChainLens / node limit (mean)', percent(ratio), `≥ ${percent(TARGET)}`, result],
  ]);
  await writeResults('ingest', {
    machine,
    settings: { blocks, txPerBlock, concurrency },
    runs,
    baselineBlocksPerSecond: baseline,
    ratio,
    target: TARGET,
    verdict: result,
  });
  return result === 'PASS';
}

/**
 * Reads every block and its receipts with `concurrency` blocks in flight, in whatever order they
 * complete (the best case for the node), checking each block is complete.
 */
async function nodeLimit(name: string, { rpcUrl, first, last, txPerBlock }: Range, concurrency: number): Promise<Run> {
  console.log(`${name}…`);
  let next = first;
  const worker = async () => {
    while (next <= last) {
      const tag = quantity(next++);
      const [block, receipts] = await Promise.all([
        rpc<{ transactions: unknown[] } | null>(rpcUrl, 'eth_getBlockByNumber', [tag, true]),
        rpc<unknown[] | null>(rpcUrl, 'eth_getBlockReceipts', [tag]),
      ]);
      if (block?.transactions.length !== txPerBlock || receipts?.length !== txPerBlock) {
        throw new Error(`block ${BigInt(tag)} came back without its ${txPerBlock} transactions and receipts`);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return timed(name, started, first, last);
}

/** Indexes the range into memory storage from an empty start and times it until the last block is stored. */
async function chainLens({ rpcUrl, first, last, txPerBlock }: Range): Promise<Run> {
  console.log('ChainLens…');
  const explorer = await createExplorer({ rpcUrl, storage: memoryStorage(), startBlock: first, logLevel: 'silent' });
  try {
    const started = performance.now();
    await explorer.start();
    await waitForCursor(explorer, last);
    const run = timed('ChainLens', started, first, last);
    const stored = await explorer.storage.getBlockTransactionHashes(last);
    if (stored.length !== txPerBlock) throw new Error(`ChainLens stored ${stored.length} of block ${last}'s ${txPerBlock} transactions`);
    return run;
  } finally {
    await explorer.close();
  }
}

function timed(name: string, started: number, first: bigint, last: bigint): Run {
  const seconds = (performance.now() - started) / 1000;
  return { name, seconds, blocksPerSecond: Number(last - first + 1n) / seconds };
}
