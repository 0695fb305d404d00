import { expect, it } from 'vitest';
import type { BlockBundle, Hex, Storage } from '@chainlens/core';
import {
  chainAccounts,
  referenceAddressActivity,
  referenceAddressLogs,
  referenceAddressTokenTransfers,
  referenceAddressTransactions,
  referenceCursor,
  chainTokenTransfers,
  referenceToken,
  referenceTokenHolders,
  referenceTokenTransferCount,
  referenceTokenTransfers,
  referenceTotals,
  tokenTransferParties,
} from '../reference.js';
import { chainInternalTransactions, referenceInternalTransactions } from '../internal-transaction-fixtures.js';
import { chainApprovals, referenceApprovals, referenceChartRollups, referenceTokenRollups } from '../insight-reference.js';
import { chainPairAddresses, chainPairs, referencePairSwapSums, referencePairSyncAt, referencePairSyncExtremes, referenceTokenPairs } from '../dex-reference.js';

/** Creates one fresh, empty storage. The suite calls `init()` before a test and `close()` after. */
export type StorageFactory = () => Promise<Storage>;

/** Registers one test that gets its own fresh, initialised storage. */
export type StorageTest = (name: string, body: (storage: Storage) => Promise<void>) => void;

/** Page size large enough to hold every transaction of the suite's chains on one page. */
export const ALL = 10_000;

/**
 * Binds `it` to a factory: every test creates its own storage, inits it, and closes it whatever
 * happens, so no test depends on another or on their order.
 */
export function storageTest(factory: StorageFactory): StorageTest {
  return (name, body) => {
    it(name, async () => {
      const storage = await factory();
      try {
        await storage.init();
        await body(storage);
      } finally {
        await storage.close();
      }
    });
  };
}

/**
 * Writes bundles in order, awaiting each.
 *
 * @example
 * await writeChain(storage, makeChain({ blocks: 5 }));
 */
export async function writeChain(storage: Storage, chain: readonly BlockBundle[]): Promise<void> {
  for (const bundle of chain) await storage.writeBlock(bundle);
}

/**
 * Asserts that every read answers exactly what writing `chain` (and nothing else) must give, and
 * that nothing of the `absent` bundles (rolled back or rejected) can be read: cursor, recent
 * blocks, totals, every block (as a whole bundle too), transaction and log, and every involved
 * address's transactions, activity, token transfer count and emitted logs, every token with its holders
 * and transfers, every pair with its syncs and swaps, every created contract's latest
 * creation, the internal transactions, all and per involved address, the chart rollups of both
 * resolutions (the chain's and every token's) and every owner's standing approvals. Uses vitest's `expect`.
 *
 * @example
 * await writeChain(storage, chain);
 * await storage.rollbackTo(chain[2]!.block.number);
 * await expectStoredChain(storage, chain.slice(0, 3), chain.slice(3));
 */
export async function expectStoredChain(
  storage: Storage,
  chain: readonly BlockBundle[],
  absent: readonly BlockBundle[] = [],
): Promise<void> {
  expect(await storage.getCursor()).toEqual(referenceCursor(chain));
  expect(await storage.listRecentBlocks(chain.length + 10)).toEqual(chain.map((b) => b.block).reverse());
  expect(await storage.getChainTotals()).toEqual(referenceTotals(chain));

  for (const bundle of chain) {
    const { block, transactions, logs } = bundle;
    expect(await storage.getBlockBundle(block.number)).toEqual(bundle);
    expect(await storage.getBlockByNumber(block.number)).toEqual(block);
    expect(await storage.getBlockByHash(block.hash)).toEqual(block);
    expect(await storage.getBlockTransactionHashes(block.number)).toEqual(transactions.map((tx) => tx.hash));
    expect(await storage.getBlockWithTransactionHashes(block.number)).toEqual({ block, transactionHashes: transactions.map((tx) => tx.hash) });
    for (const tx of transactions) {
      expect(await storage.getTransaction(tx.hash)).toEqual(tx);
      expect(await storage.getTransactionLogs(tx.hash)).toEqual(logs.filter((l) => l.transactionHash === tx.hash));
    }
  }

  const storedNumbers = new Set(chain.map((b) => b.block.number));
  for (const { block, transactions } of absent) {
    expect(await storage.getBlockByHash(block.hash)).toBeNull();
    if (!storedNumbers.has(block.number)) {
      expect(await storage.getBlockByNumber(block.number)).toBeNull();
      expect(await storage.getBlockTransactionHashes(block.number)).toEqual([]);
      expect(await storage.getBlockWithTransactionHashes(block.number)).toBeNull();
    }
    for (const tx of transactions) {
      expect(await storage.getTransaction(tx.hash)).toBeNull();
      expect(await storage.getTransactionLogs(tx.hash)).toEqual([]);
    }
  }

  const addresses = new Set<Hex>([...chainAccounts(chain), ...chainAccounts(absent), ...tokenTransferParties(chain), ...tokenTransferParties(absent)]);
  for (const address of addresses) {
    expect(await storage.countAddressTokenTransfers(address), address).toBe(referenceTokenTransferCount(chain, address));
    expect(await storage.listAddressTransactions({ address, page: 1, offset: ALL, sort: 'asc' })).toEqual(
      referenceAddressTransactions(chain, address),
    );
    expect(await storage.getAddressActivity(address)).toEqual(referenceAddressActivity(chain, address));
    const transfers = { address, page: 1, offset: ALL, sort: 'asc' } as const;
    expect(await storage.listAddressTokenTransfers(transfers), address).toEqual(referenceAddressTokenTransfers(chain, transfers));
  }

  const tokens = new Set<Hex>([...chainTokenTransfers(chain), ...chainTokenTransfers(absent)].map((t) => t.token));
  for (const token of tokens) {
    expect(await storage.getToken(token), token).toEqual(referenceToken(chain, token));
    const holders = { token, page: 1, offset: ALL };
    expect(await storage.listTokenHolders(holders), token).toEqual(referenceTokenHolders(chain, holders));
    const transfers = { token, page: 1, offset: ALL, sort: 'asc' } as const;
    expect(await storage.listTokenTransfers(transfers), token).toEqual(referenceTokenTransfers(chain, transfers));
  }

  for (const address of new Set([...chain, ...absent].flatMap((bundle) => bundle.logs.map((log) => log.address)))) {
    const query = { address, page: 1, offset: ALL, sort: 'asc' } as const;
    expect(await storage.listAddressLogs(query), address).toEqual(referenceAddressLogs(chain, query));
  }
  await expectStoredPairs(storage, chain, absent);
  for (const address of new Set([...chain, ...absent].flatMap((bundle) => bundle.contracts.map((creation) => creation.address)))) {
    const latest = chain.flatMap((bundle) => bundle.contracts).filter((creation) => creation.address === address).at(-1) ?? null;
    expect(await storage.getContractCreation(address), address).toEqual(latest);
  }
  await expectStoredInternalTransactions(storage, chain, absent);
  await expectStoredInsights(storage, chain, absent);
}

/** Far past any fixture's timestamps: a range that holds every bucket. */
const END_OF_TIME = 2n ** 62n;

/** The chart rollups (both resolutions, every token's) and every owner's standing approvals of {@link expectStoredChain}. */
async function expectStoredInsights(storage: Storage, chain: readonly BlockBundle[], absent: readonly BlockBundle[]): Promise<void> {
  const middle = chain[chain.length >> 1]?.block.timestamp ?? 0n;
  for (const resolution of ['hour', 'day'] as const) {
    for (const [from, to] of [[0n, END_OF_TIME], [middle, END_OF_TIME], [0n, middle]] as const) {
      const query = { resolution, from, to };
      expect(await storage.listChartRollups(query), `${resolution} rollups [${from}, ${to}]`).toEqual(referenceChartRollups(chain, query));
      for (const token of new Set([...chainTokenTransfers(chain), ...chainTokenTransfers(absent)].map((t) => t.token))) {
        expect(await storage.listTokenRollups({ ...query, token }), `${token} ${resolution} rollups [${from}, ${to}]`).toEqual(referenceTokenRollups(chain, { ...query, token }));
      }
    }
  }
  for (const owner of new Set(chainApprovals([...chain, ...absent]).map((approval) => approval.owner))) {
    const query = { owner, page: 1, offset: ALL };
    expect(await storage.listApprovals(query), owner).toEqual(referenceApprovals(chain, query));
  }
}

/** The internal transaction reads of {@link expectStoredChain}: all of them, and each involved address's. */
async function expectStoredInternalTransactions(storage: Storage, chain: readonly BlockBundle[], absent: readonly BlockBundle[]): Promise<void> {
  const all = { page: 1, offset: ALL, sort: 'asc' } as const;
  expect(await storage.listInternalTransactions(all)).toEqual(referenceInternalTransactions(chain, all));
  const addresses = new Set(chainInternalTransactions([...chain, ...absent]).flatMap((internal) => [internal.from, ...(internal.to ? [internal.to] : [])]));
  for (const address of addresses) {
    const query = { ...all, address };
    expect(await storage.listInternalTransactions(query), address).toEqual(referenceInternalTransactions(chain, query));
  }
}

/** The pair reads of {@link expectStoredChain}: pairs per token, syncs at and around each block time, window extremes and swap sums. */
async function expectStoredPairs(storage: Storage, chain: readonly BlockBundle[], absent: readonly BlockBundle[]): Promise<void> {
  const both = [...chain, ...absent];
  for (const token of new Set(chainPairs(both).flatMap((pair) => [pair.token0, pair.token1]))) {
    expect(await storage.listTokenPairs(token), token).toEqual(referenceTokenPairs(chain, token));
  }
  const times = [...new Set(both.map((bundle) => bundle.block.timestamp))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (times.length === 0) return;
  const first = times[0]! - 1n;
  const last = times.at(-1)!;
  const middle = times[times.length >> 1]!;
  for (const pair of chainPairAddresses(both)) {
    for (const time of times) {
      expect(await storage.getPairSyncAt(pair, time), `${pair} at ${time}`).toEqual(referencePairSyncAt(chain, pair, time));
      expect(await storage.getPairSyncAt(pair, time - 1n), `${pair} at ${time - 1n}`).toEqual(referencePairSyncAt(chain, pair, time - 1n));
    }
    for (const [from, to] of [[first, last], [first, middle], [middle, last]] as const) {
      expect(await storage.getPairSyncExtremes(pair, from, to), `${pair} (${from}, ${to}]`).toEqual(referencePairSyncExtremes(chain, pair, from, to));
      expect(await storage.sumPairSwaps(pair, from, to), `${pair} (${from}, ${to}]`).toEqual(referencePairSwapSums(chain, pair, from, to));
    }
  }
}
