import { describe, expect } from 'vitest';
import type { BlockBundle } from '@chainlens/core';
import { fixtureAddress, makeAddressPool, makeChain } from '../fixtures.js';
import { chainAccounts, chainTokenTransfers, referenceAddressTransactions, referenceTokenTransfers, referenceTotals } from '../reference.js';
import { ALL, type StorageFactory, expectStoredChain, storageTest, writeChain } from './harness.js';

/**
 * `chain` with its transfers moving two tokens, a block's in turn, and every other block's last
 * transfer moved twice (a second item of its log's batch).
 */
function twoTokens(chain: BlockBundle[]): BlockBundle[] {
  const tokens = [fixtureAddress('ordinal-token-a'), fixtureAddress('ordinal-token-b')];
  return chain.map((bundle, i) => {
    const transfers = bundle.tokenTransfers.map((transfer, j) => ({ ...transfer, token: tokens[(i + j) % 2]! }));
    const last = transfers.at(-1);
    return { ...bundle, tokenTransfers: i % 2 === 0 && last ? [...transfers, { ...last, batchIndex: last.batchIndex + 1, value: last.value + 1n }] : transfers };
  });
}

/** rollbackTo, and writing again after it. */
export function rollbackTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('rollbackTo', () => {
    test('removes every block above N and keeps blocks up to N', async (storage) => {
      const chain = makeChain({ blocks: 6, startNumber: 100n });
      await writeChain(storage, chain);
      await storage.rollbackTo(102n);
      for (const { block } of chain.slice(0, 3)) expect(await storage.getBlockByNumber(block.number)).toEqual(block);
      for (const { block } of chain.slice(3)) {
        expect(await storage.getBlockByNumber(block.number)).toBeNull();
        expect(await storage.getBlockByHash(block.hash)).toBeNull();
      }
      expect(await storage.listRecentBlocks(10)).toEqual(chain.slice(0, 3).map((b) => b.block).reverse());
    });

    test('removes the transactions and logs of removed blocks', async (storage) => {
      const chain = makeChain({ blocks: 6, txPerBlock: 4 });
      await writeChain(storage, chain);
      await storage.rollbackTo(2n);
      for (const { block, transactions } of chain.slice(3)) {
        expect(await storage.getBlockTransactionHashes(block.number)).toEqual([]);
        for (const tx of transactions) {
          expect(await storage.getTransaction(tx.hash)).toBeNull();
          expect(await storage.getTransactionLogs(tx.hash)).toEqual([]);
        }
        expect(await storage.getTransactions(transactions.map((tx) => tx.hash))).toEqual(transactions.map(() => null));
      }
    });

    test('moves the cursor to block N’s number and hash', async (storage) => {
      const chain = makeChain({ blocks: 5 });
      await writeChain(storage, chain);
      await storage.rollbackTo(1n);
      expect(await storage.getCursor()).toEqual({ number: 1n, hash: chain[1]!.block.hash });
    });

    test('leaves exactly what writing blocks up to N gives', async (storage) => {
      const chain = makeChain({ blocks: 8, txPerBlock: 3 });
      await writeChain(storage, chain);
      await storage.rollbackTo(4n);
      await expectStoredChain(storage, chain.slice(0, 5), chain.slice(5));
    });

    test('removes address entries of removed blocks, including addresses seen only there', async (storage) => {
      const chain = makeChain({ blocks: 8, txPerBlock: 3 });
      const kept = chain.slice(0, 4);
      const onlyRemoved = chainAccounts(chain.slice(4)).filter((a) => !chainAccounts(kept).includes(a));
      expect(onlyRemoved.length).toBeGreaterThan(0);
      await writeChain(storage, chain);
      await storage.rollbackTo(3n);
      for (const address of onlyRemoved) {
        expect(await storage.listAddressTransactions({ address, page: 1, offset: ALL, sort: 'desc' })).toEqual([]);
        expect(await storage.getAddressActivity(address)).toEqual({ transactionCount: 0, firstSeen: null, lastSeen: null });
      }
    });

    test('takes back the chain totals of removed blocks', async (storage) => {
      const chain = makeChain({ blocks: 8, txPerBlock: 3 });
      await writeChain(storage, chain);
      expect(await storage.getChainTotals()).toEqual(referenceTotals(chain));
      await storage.rollbackTo(2n);
      expect(await storage.getChainTotals()).toEqual(referenceTotals(chain.slice(0, 3)));
      expect(referenceTotals(chain.slice(0, 3))).not.toEqual(referenceTotals(chain));
    });

    test('to the cursor is a no-op', async (storage) => {
      const chain = makeChain({ blocks: 4 });
      await writeChain(storage, chain);
      await storage.rollbackTo(3n);
      await expectStoredChain(storage, chain);
    });

    test('above the cursor is a no-op', async (storage) => {
      const chain = makeChain({ blocks: 4 });
      await writeChain(storage, chain);
      await storage.rollbackTo(1_000n);
      await expectStoredChain(storage, chain);
    });

    test('below the first stored block clears everything including the cursor', async (storage) => {
      const chain = makeChain({ blocks: 4, startNumber: 50n });
      await writeChain(storage, chain);
      await storage.rollbackTo(49n);
      expect(await storage.getCursor()).toBeNull();
      expect(await storage.listRecentBlocks(10)).toEqual([]);
      expect(await storage.getChainTotals()).toEqual({ totalTransactions: 0, totalAccounts: 0, totalContracts: 0 });
      await expectStoredChain(storage, [], chain);
    });

    test('far below the first stored block clears everything too', async (storage) => {
      const chain = makeChain({ blocks: 3, startNumber: 50n });
      await writeChain(storage, chain);
      await storage.rollbackTo(0n);
      await expectStoredChain(storage, [], chain);
    });

    test('on an empty storage is a no-op', async (storage) => {
      await storage.rollbackTo(10n);
      await storage.rollbackTo(0n);
      await expectStoredChain(storage, []);
    });

    test('to the first stored block keeps only that block', async (storage) => {
      const chain = makeChain({ blocks: 4, startNumber: 20n });
      await writeChain(storage, chain);
      await storage.rollbackTo(20n);
      await expectStoredChain(storage, chain.slice(0, 1), chain.slice(1));
    });

    test('then a fork branching off block N can be written', async (storage) => {
      const chain = makeChain({ blocks: 6, txPerBlock: 3 });
      await writeChain(storage, chain);
      await storage.rollbackTo(2n);
      const fork = makeChain({ blocks: 4, txPerBlock: 2, parent: chain[2]!.block, seed: 'fork' });
      await writeChain(storage, fork);
      await expectStoredChain(storage, [...chain.slice(0, 3), ...fork], chain.slice(3));
    });

    test('then an address’s pages are exact in both orders, its old and new transactions in one sequence', async (storage) => {
      // A few addresses, so each has transactions in the kept, the removed and the fork's blocks.
      const pool = makeAddressPool(3);
      const chain = makeChain({ blocks: 8, txPerBlock: 4, addresses: pool });
      await writeChain(storage, chain);
      await storage.rollbackTo(4n);
      const fork = makeChain({ blocks: 5, txPerBlock: 3, addresses: pool, parent: chain[4]!.block, seed: 'fork' });
      await writeChain(storage, fork);
      const stored = [...chain.slice(0, 5), ...fork];
      for (const address of pool) {
        const asc = referenceAddressTransactions(stored, address);
        expect(asc.length).toBeGreaterThan(9);
        for (const [sort, all] of [['asc', asc], ['desc', [...asc].reverse()]] as const) {
          for (let page = 1; page <= Math.ceil(all.length / 4) + 1; page++) {
            expect(await storage.listAddressTransactions({ address, page, offset: 4, sort })).toEqual(all.slice((page - 1) * 4, page * 4));
          }
          const ranged = all.filter((tx) => tx.blockNumber >= 3n && tx.blockNumber <= 6n);
          expect(await storage.listAddressTransactions({ address, startBlock: 3n, endBlock: 6n, page: 2, offset: 2, sort })).toEqual(ranged.slice(2, 4));
        }
      }
    });

    test('then a token’s transfer pages are exact in both orders, its old and new transfers in one sequence', async (storage) => {
      // Few contracts, so each token moves in the kept, the removed and the fork's blocks, and
      // some more than once in a block: the ordinals a block's transfers take stay consecutive.
      // Two tokens move in the kept, the removed and the fork's blocks, both in some blocks and
      // one of them twice in some: the ordinals a block's transfers take stay consecutive per token.
      const pool = makeAddressPool(3);
      const chain = twoTokens(makeChain({ blocks: 10, txPerBlock: 5, addresses: pool }));
      await writeChain(storage, chain);
      await storage.rollbackTo(5n);
      const fork = twoTokens(makeChain({ blocks: 6, txPerBlock: 4, addresses: pool, parent: chain[5]!.block, seed: 'fork' }));
      await writeChain(storage, fork);
      const stored = [...chain.slice(0, 6), ...fork];
      const transfers = chainTokenTransfers(stored);
      const tokens = [...new Set(transfers.map((transfer) => transfer.token))];
      const moves = (token: string, bundles: typeof stored) => chainTokenTransfers(bundles).filter((transfer) => transfer.token === token).length;
      const tokensOf = (bundle: BlockBundle) => bundle.tokenTransfers.map((transfer) => transfer.token);
      expect(stored.some((bundle) => new Set(tokensOf(bundle)).size > 1)).toBe(true);
      expect(stored.some((bundle) => new Set(tokensOf(bundle)).size < tokensOf(bundle).length)).toBe(true);
      expect(tokens.some((token) => moves(token, chain.slice(0, 6)) > 0 && moves(token, chain.slice(6)) > 0 && moves(token, fork) > 0)).toBe(true);
      for (const token of tokens) {
        const count = moves(token, stored);
        for (const sort of ['asc', 'desc'] as const) {
          for (let page = 1; page <= Math.ceil(count / 3) + 1; page++) {
            const query = { token, page, offset: 3, sort };
            expect(await storage.listTokenTransfers(query), `${token} ${sort} page ${page}`).toEqual(referenceTokenTransfers(stored, query));
          }
          const ranged = { token, startBlock: 3n, endBlock: 8n, page: 2, offset: 2, sort };
          expect(await storage.listTokenTransfers(ranged)).toEqual(referenceTokenTransfers(stored, ranged));
        }
        expect((await storage.getToken(token))?.transferCount).toBe(count);
      }
    });

    test('then the removed blocks can be written again', async (storage) => {
      const chain = makeChain({ blocks: 6, txPerBlock: 3 });
      await writeChain(storage, chain);
      await storage.rollbackTo(2n);
      await writeChain(storage, chain.slice(3));
      await expectStoredChain(storage, chain);
    });

    test('then a block that is not a child of block N is rejected', async (storage) => {
      const chain = makeChain({ blocks: 6 });
      await writeChain(storage, chain);
      await storage.rollbackTo(2n);
      await expect(storage.writeBlock(chain[4]!)).rejects.toThrow();
      const orphan = makeChain({ blocks: 1, startNumber: 3n, seed: 'orphan' })[0]!;
      await expect(storage.writeBlock(orphan)).rejects.toThrow();
      await expectStoredChain(storage, chain.slice(0, 3), [...chain.slice(3), orphan]);
    });

    test('after clearing everything, any block can be written first', async (storage) => {
      const chain = makeChain({ blocks: 3, startNumber: 10n });
      await writeChain(storage, chain);
      await storage.rollbackTo(5n);
      const other = makeChain({ blocks: 2, startNumber: 500n, seed: 'other' });
      await writeChain(storage, other);
      await expectStoredChain(storage, other, chain);
    });

    test('successive rollbacks each take back their blocks', async (storage) => {
      const chain = makeChain({ blocks: 8, txPerBlock: 2 });
      await writeChain(storage, chain);
      await storage.rollbackTo(5n);
      await storage.rollbackTo(2n);
      await expectStoredChain(storage, chain.slice(0, 3), chain.slice(3));
    });
  });
}
