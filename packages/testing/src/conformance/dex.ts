import { describe, expect } from 'vitest';
import type { BlockBundle, Hex } from '@chainlens/core';
import { pairCreatedLog, redecode, swapLog, syncLog } from '../dex-fixtures.js';
import { fixtureAddress, makeChain } from '../fixtures.js';
import { type StorageFactory, expectStoredChain, storageTest, writeChain } from './harness.js';

const MAX_UINT256 = 2n ** 256n - 1n;
const MAX_UINT112 = 2n ** 112n - 1n;
const E18 = 10n ** 18n;

const FACTORY = fixtureAddress('dex-factory');
const OTHER_FACTORY = fixtureAddress('dex-other-factory');
const A = fixtureAddress('dex-token-a');
const B = fixtureAddress('dex-token-b');
const QUOTE = fixtureAddress('dex-quote');
const PAIR_AQ = fixtureAddress('dex-pair-aq');
const PAIR_BQ = fixtureAddress('dex-pair-bq');
const PAIR_AB = fixtureAddress('dex-pair-ab');
const TRADER = fixtureAddress('dex-trader');

/**
 * A fixture chain whose logs, in chain order, are rewritten into pair events: pairs created on
 * two factories with a token on both sides, syncs (two in one block, a tie, a zero reserve,
 * uint112 extremes) and swaps with uint256-sized amounts.
 */
function chainWithPairEvents(): BlockBundle[] {
  const chain = makeChain({ blocks: 14, txPerBlock: 4 });
  const script: ((log: BlockBundle['logs'][number]) => void)[] = [
    (log) => pairCreatedLog(log, FACTORY, A, QUOTE, PAIR_AQ),
    (log) => syncLog(log, PAIR_AQ, 1_000n * E18, 2_500n * E18),
    (log) => pairCreatedLog(log, FACTORY, B, QUOTE, PAIR_BQ, 2n),
    (log) => swapLog(log, PAIR_AQ, [0n, 100n * E18, 39n * E18, 0n], TRADER, TRADER),
    (log) => syncLog(log, PAIR_AQ, 961n * E18, 2_600n * E18),
    (log) => syncLog(log, PAIR_BQ, 5_000_000n, 7n * E18),
    (log) => pairCreatedLog(log, OTHER_FACTORY, A, B, PAIR_AB),
    (log) => syncLog(log, PAIR_AQ, 2_000n * E18, 5_000n * E18),
    (log) => swapLog(log, PAIR_BQ, [MAX_UINT256, MAX_UINT256, 0n, 1n], TRADER, TRADER),
    (log) => swapLog(log, PAIR_BQ, [MAX_UINT256, 0n, MAX_UINT256, 0n], TRADER, TRADER),
    (log) => syncLog(log, PAIR_AQ, 0n, 10n),
    (log) => syncLog(log, PAIR_AB, MAX_UINT112, 1n),
    (log) => syncLog(log, PAIR_AB, 1n, MAX_UINT112),
    (log) => swapLog(log, PAIR_AQ, [5n, 0n, 0n, 3n], TRADER, TRADER),
    (log) => syncLog(log, PAIR_AQ, 999n, 2_501n),
  ];
  const logs = chain.flatMap((bundle) => bundle.logs);
  if (logs.length < script.length) throw new Error('fixture chain has too few logs');
  script.forEach((rewrite, i) => rewrite(logs[i]!));
  for (const bundle of chain) redecode(bundle);
  return chain;
}

/** Index of the bundle holding the `n`-th (0-based) pair event of any kind, in chain order. */
function bundleOfEvent(chain: readonly BlockBundle[], n: number): number {
  let seen = 0;
  for (const [i, bundle] of chain.entries()) {
    seen += bundle.pairs.length + bundle.pairSyncs.length + bundle.pairSwaps.length;
    if (seen > n) return i;
  }
  throw new Error(`the chain has no pair event ${n}`);
}

const timeOf = (chain: readonly BlockBundle[], pair: Hex, reserve0: bigint) =>
  chain.flatMap((b) => b.pairSyncs).find((s) => s.pair === pair && s.reserve0 === reserve0)!.timestamp;

/** Uniswap-V2 pairs, syncs and swaps: written with their block, read back exactly, rolled back. */
export function dexTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('pairs, syncs and swaps', () => {
    test('are written with their block and read back exactly: pairs per token, syncs at a time, extremes and swap sums', async (storage) => {
      const chain = chainWithPairEvents();
      expect(chain.flatMap((b) => b.pairs)).toHaveLength(3);
      expect(chain.flatMap((b) => b.pairSyncs)).toHaveLength(8);
      expect(chain.flatMap((b) => b.pairSwaps)).toHaveLength(4);
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
    });

    test('a token is listed with its pairs on either side and of any factory, in creation order', async (storage) => {
      const chain = chainWithPairEvents();
      await writeChain(storage, chain);
      expect((await storage.listTokenPairs(A)).map((p) => [p.address, p.factory])).toEqual([
        [PAIR_AQ, FACTORY],
        [PAIR_AB, OTHER_FACTORY],
      ]);
      expect((await storage.listTokenPairs(QUOTE)).map((p) => p.address)).toEqual([PAIR_AQ, PAIR_BQ]);
      expect(await storage.listTokenPairs(fixtureAddress('no-pairs'))).toEqual([]);
    });

    test('extremes compare ratios exactly, skip a zero reserve and keep the earliest of a tie; swap sums exceed uint256 exactly', async (storage) => {
      const chain = chainWithPairEvents();
      await writeChain(storage, chain);
      const start = chain[0]!.block.timestamp - 1n;
      const end = chain.at(-1)!.block.timestamp;
      const extremes = await storage.getPairSyncExtremes(PAIR_AQ, start, end);
      // 961:2600 is the highest; 2:5, shared by two syncs (the earlier wins), is a hair below
      // 999:2501 and the lowest; 0:10 has no price.
      expect([extremes?.highest.reserve0, extremes?.lowest.reserve0]).toEqual([961n * E18, 1_000n * E18]);
      const ab = await storage.getPairSyncExtremes(PAIR_AB, start, end);
      expect([ab?.highest.reserve0, ab?.lowest.reserve0]).toEqual([1n, MAX_UINT112]);
      expect(await storage.sumPairSwaps(PAIR_BQ, start, end)).toEqual({
        amount0In: 2n * MAX_UINT256,
        amount1In: MAX_UINT256,
        amount0Out: MAX_UINT256,
        amount1Out: 1n,
      });
      expect(await storage.getPairSyncAt(PAIR_AQ, start)).toBeNull();
      expect((await storage.getPairSyncAt(PAIR_AQ, end))?.reserve0).toBe(999n);
    });

    test('getPairSyncsAt answers getPairSyncAt of each time, in input order, in one call', async (storage) => {
      const chain = chainWithPairEvents();
      await writeChain(storage, chain);
      const times = chain.flatMap((b) => [b.block.timestamp, b.block.timestamp - 1n]).reverse();
      for (const pair of [PAIR_AQ, PAIR_BQ, PAIR_AB, fixtureAddress('no-pair')]) {
        expect(await storage.getPairSyncsAt(pair, times), pair).toEqual(await Promise.all(times.map((time) => storage.getPairSyncAt(pair, time))));
      }
      expect(await storage.getPairSyncsAt(PAIR_AQ, [])).toEqual([]);
    });

    test('windows leave out their start and keep their end', async (storage) => {
      const chain = chainWithPairEvents();
      await writeChain(storage, chain);
      const first = timeOf(chain, PAIR_AQ, 1_000n * E18);
      const second = timeOf(chain, PAIR_AQ, 961n * E18);
      expect(first).toBeLessThan(second);
      expect(await storage.getPairSyncExtremes(PAIR_AQ, first - 1n, first)).toMatchObject({ highest: { reserve0: 1_000n * E18 } });
      expect(await storage.getPairSyncExtremes(PAIR_AQ, first, second)).toMatchObject({ highest: { reserve0: 961n * E18 } });
      expect(await storage.getPairSyncExtremes(PAIR_AQ, second, second)).toBeNull();
      expect(await storage.sumPairSwaps(PAIR_AQ, second, second)).toEqual({ amount0In: 0n, amount1In: 0n, amount0Out: 0n, amount1Out: 0n });
    });

    test('rollbackTo takes back exactly the pair events of removed blocks, and writing them again restores them', async (storage) => {
      const chain = chainWithPairEvents();
      await writeChain(storage, chain);
      for (const cut of [bundleOfEvent(chain, 9), bundleOfEvent(chain, 4), 0]) {
        await storage.rollbackTo(chain[cut]!.block.number);
        await expectStoredChain(storage, chain.slice(0, cut + 1), chain.slice(cut + 1));
      }
      await writeChain(storage, chain.slice(1));
      await expectStoredChain(storage, chain);
    });

    test('writeBlock refuses pair events naming no log of their contract, out of order or of another time, writing nothing', async (storage) => {
      const chain = chainWithPairEvents();
      const index = chain.findIndex((b) => b.pairSyncs.length > 0);
      const bundle = chain[index]!;
      const sync = bundle.pairSyncs[0]!;
      await writeChain(storage, chain.slice(0, index));
      const bad: BlockBundle[] = [
        { ...bundle, pairSyncs: [{ ...sync, pair: PAIR_BQ }] },
        { ...bundle, pairSyncs: [{ ...sync, logIndex: 999 }] },
        { ...bundle, pairSyncs: [{ ...sync, timestamp: sync.timestamp + 1n }] },
        { ...bundle, pairSyncs: [sync, sync] },
        { ...bundle, pairs: [{ address: PAIR_BQ, factory: FACTORY, token0: A, token1: B, blockNumber: bundle.block.number, logIndex: sync.logIndex }] },
      ];
      for (const bundleOfBad of bad) await expect(storage.writeBlock(bundleOfBad)).rejects.toThrow(/writeBlock/);
      await expectStoredChain(storage, chain.slice(0, index));
      await writeChain(storage, chain.slice(index));
      await expectStoredChain(storage, chain);
    });
  });
}
