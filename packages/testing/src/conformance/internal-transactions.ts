import { describe, expect } from 'vitest';
import type { BlockBundle, Hex, InternalTransactionsQuery, StoredInternalTransaction } from '@chainlens/core';
import { fixtureAddress, makeChain } from '../fixtures.js';
import { chainInternalTransactions, FIXTURE_RECREATED, referenceInternalTransactions, withInternalTransactions } from '../internal-transaction-fixtures.js';
import { type StorageFactory, expectStoredChain, storageTest, writeChain } from './harness.js';

function chainWithInternalTransactions(): BlockBundle[] {
  return withInternalTransactions(makeChain({ blocks: 10, txPerBlock: 3 }));
}

/** Queries over the whole range and its parts, both orders, several pages. */
function queriesOf(chain: readonly BlockBundle[], address: Hex | undefined): InternalTransactionsQuery[] {
  const middle = chain[chain.length >> 1]!.block.number;
  const queries: InternalTransactionsQuery[] = [];
  for (const sort of ['asc', 'desc'] as const) {
    queries.push(
      { address, page: 1, offset: 4, sort },
      { address, page: 3, offset: 4, sort },
      { address, page: 500, offset: 4, sort },
      { address, startBlock: middle, page: 1, offset: 100, sort },
      { address, endBlock: middle, page: 2, offset: 3, sort },
      { address, startBlock: middle, endBlock: middle, page: 1, offset: 100, sort },
      { address, startBlock: middle + 1n, endBlock: middle, page: 1, offset: 100, sort },
    );
  }
  return queries;
}

const show = (query: InternalTransactionsQuery) => JSON.stringify(query, (_, v) => (typeof v === 'bigint' ? String(v) : v));

/** Internal transactions: by address or all, by block range, sorted and paged, rolled back exactly. */
export function internalTransactionTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('internal transactions', () => {
    test('lists every one, or an address’s as sender or recipient (once when both), by block range, in both orders and pages', async (storage) => {
      const chain = chainWithInternalTransactions();
      const internal = chainInternalTransactions(chain);
      expect(internal.some((x) => x.from === x.to)).toBe(true);
      expect(internal.some((x) => x.error !== null)).toBe(true);
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
      const contract = internal[0]!.from;
      for (const address of [undefined, contract, FIXTURE_RECREATED, fixtureAddress(1), fixtureAddress('never-called')]) {
        for (const query of queriesOf(chain, address)) expect(await storage.listInternalTransactions(query), show(query)).toEqual(referenceInternalTransactions(chain, query));
      }
    });

    test('rollbackTo takes back exactly the internal transactions of the removed blocks', async (storage) => {
      const chain = chainWithInternalTransactions();
      await writeChain(storage, chain);
      for (const cut of [7, 3, 0]) {
        await storage.rollbackTo(chain[cut]!.block.number);
        await expectStoredChain(storage, chain.slice(0, cut + 1), chain.slice(cut + 1));
      }
      await writeChain(storage, chain.slice(1));
      await expectStoredChain(storage, chain);
    });

    test('writeBlock refuses an internal transaction naming no transaction of the block, out of order or of another time, writing nothing', async (storage) => {
      const chain = chainWithInternalTransactions();
      const index = chain.findIndex((b, i) => i > 0 && b.internalTransactions.length > 1);
      const bundle = chain[index]!;
      const [first, second] = bundle.internalTransactions as [StoredInternalTransaction, StoredInternalTransaction];
      await writeChain(storage, chain.slice(0, index));
      const bad: BlockBundle[] = [
        { ...bundle, internalTransactions: [{ ...first, transactionHash: fixtureAddress('x').padEnd(66, '0') as Hex }] },
        { ...bundle, internalTransactions: [{ ...first, blockNumber: first.blockNumber + 1n }] },
        { ...bundle, internalTransactions: [{ ...first, timestamp: first.timestamp + 1n }] },
        { ...bundle, internalTransactions: [second, first] },
        { ...bundle, internalTransactions: [first, first] },
      ];
      for (const bundleOfBad of bad) await expect(storage.writeBlock(bundleOfBad)).rejects.toThrow(/writeBlock/);
      await expectStoredChain(storage, chain.slice(0, index));
      await writeChain(storage, chain.slice(index));
      await expectStoredChain(storage, chain);
    });
  });
}
