import { describe, expect } from 'vitest';
import type { Hex } from '@chainlens/core';
import { fixtureHash, makeChain } from '../fixtures.js';
import { type StorageFactory, expectStoredChain, storageTest, writeChain } from './harness.js';

/** writeBlock, the cursor, and block reads. */
export function blockTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('blocks and cursor', () => {
    test('getCursor is null before the first write', async (storage) => {
      expect(await storage.getCursor()).toBeNull();
    });

    test('getBlockBundle returns every bundle exactly as written, and null for an unknown block', async (storage) => {
      const chain = makeChain({ blocks: 5, txPerBlock: 6 });
      await writeChain(storage, chain);
      for (const bundle of chain) expect(await storage.getBlockBundle(bundle.block.number)).toEqual(bundle);
      expect(await storage.getBlockBundle(99n)).toBeNull();
    });

    test('getBlockBundle of a rolled-back block is null, and of the rewritten block the new bundle', async (storage) => {
      const chain = makeChain({ blocks: 4, txPerBlock: 3 });
      await writeChain(storage, chain);
      await storage.rollbackTo(1n);
      expect(await storage.getBlockBundle(2n)).toBeNull();
      const fork = makeChain({ blocks: 2, txPerBlock: 2, parent: chain[1]!.block, seed: 'fork' });
      await writeChain(storage, fork);
      expect(await storage.getBlockBundle(2n)).toEqual(fork[0]);
    });

    test('a written block reads back equal by number and by hash', async (storage) => {
      const [bundle] = makeChain({ blocks: 1, startNumber: 7n });
      await storage.writeBlock(bundle!);
      expect(await storage.getBlockByNumber(7n)).toEqual(bundle!.block);
      expect(await storage.getBlockByHash(bundle!.block.hash)).toEqual(bundle!.block);
    });

    test('getBlocksWithTransactionHashes reads many blocks with their hashes in input order, null for unknown numbers', async (storage) => {
      const chain = makeChain({ blocks: 3, txPerBlock: 2, startNumber: 4n });
      await writeChain(storage, chain);
      const entry = (i: number) => ({ block: chain[i]!.block, transactionHashes: chain[i]!.transactions.map((tx) => tx.hash) });
      expect(await storage.getBlocksWithTransactionHashes([6n, 99n, 4n, 6n, -1n])).toEqual([entry(2), null, entry(0), entry(2), null]);
      expect(await storage.getBlocksWithTransactionHashes([])).toEqual([]);
    });

    test('listMinerBlocks pages one miner’s blocks newest first, and a rollback takes its rolled-back blocks away', async (storage) => {
      const chain = makeChain({ blocks: 10, txPerBlock: 1 });
      await writeChain(storage, chain);
      const miner = chain[4]!.block.miner;
      const mined = chain.map((bundle) => bundle.block).filter((block) => block.miner === miner).reverse();
      expect(mined.length).toBeGreaterThan(2);
      expect(await storage.listMinerBlocks({ miner, page: 1, offset: 100 })).toEqual(mined);
      expect(await storage.listMinerBlocks({ miner, page: 2, offset: 2 })).toEqual(mined.slice(2, 4));
      expect(await storage.listMinerBlocks({ miner: fixtureHash('nobody').slice(0, 42) as Hex, page: 1, offset: 100 })).toEqual([]);
      await storage.rollbackTo(mined[1]!.number);
      expect(await storage.listMinerBlocks({ miner, page: 1, offset: 100 })).toEqual(mined.slice(1));
    });

    test('a pre-London block reads back with baseFeePerGas null', async (storage) => {
      const chain = makeChain({ blocks: 2, londonBlock: 1n });
      expect(chain[0]!.block.baseFeePerGas).toBeNull();
      expect(chain[1]!.block.baseFeePerGas).not.toBeNull();
      await writeChain(storage, chain);
      expect(await storage.getBlockByNumber(0n)).toEqual(chain[0]!.block);
      expect(await storage.getBlockByNumber(1n)).toEqual(chain[1]!.block);
    });

    test('each writeBlock moves the cursor to that block number and hash', async (storage) => {
      for (const { block } of makeChain({ blocks: 4 })) {
        await storage.writeBlock({ block, transactions: [], logs: [], tokenTransfers: [], pairs: [], pairSyncs: [], pairSwaps: [], approvals: [], contracts: [], internalTransactions: [] });
        expect(await storage.getCursor()).toEqual({ number: block.number, hash: block.hash });
      }
    });

    test('writeBlocks writes consecutive blocks at once, as writing them one by one does', async (storage) => {
      const chain = makeChain({ blocks: 7, txPerBlock: 4 });
      await storage.writeBlocks(chain.slice(0, 3));
      await storage.writeBlocks([]);
      await storage.writeBlocks(chain.slice(3, 4));
      await storage.writeBlocks(chain.slice(4));
      await expectStoredChain(storage, chain);
    });

    test('writeBlocks refuses blocks that do not follow the cursor and each other, or a bad one among them, writing none', async (storage) => {
      const chain = makeChain({ blocks: 6, txPerBlock: 3 });
      const fork = makeChain({ blocks: 2, txPerBlock: 3, parent: chain[3]!.block, seed: 'fork' });
      await writeChain(storage, chain.slice(0, 3));
      const [third, fourth] = [chain[3]!, chain[4]!];
      const refused = [
        [fourth, chain[5]!],
        [third, fork[1]!],
        [third, fourth, { ...chain[5]!, transactions: chain[5]!.transactions.map((tx, i) => (i === 0 ? { ...tx, blockHash: third.block.hash } : tx)) }],
        [third, { ...fourth, transactions: [...fourth.transactions, third.transactions[0]!] }],
      ];
      for (const bundles of refused) await expect(storage.writeBlocks(bundles)).rejects.toThrow(/writeBlock/);
      await expectStoredChain(storage, chain.slice(0, 3), chain.slice(3));
      await storage.writeBlocks(chain.slice(3));
      await expectStoredChain(storage, chain);
    });

    test('a whole chain reads back exactly as written', async (storage) => {
      const chain = makeChain({ blocks: 6, txPerBlock: 4 });
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
    });

    test('the first write is accepted at any block number, whatever its parentHash', async (storage) => {
      const chain = makeChain({ blocks: 2, startNumber: 18_000_000n });
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
    });

    test('a block that skips a number is rejected and nothing of it is written', async (storage) => {
      const chain = makeChain({ blocks: 4 });
      await writeChain(storage, chain.slice(0, 2));
      await expect(storage.writeBlock(chain[3]!)).rejects.toThrow();
      await expectStoredChain(storage, chain.slice(0, 2), [chain[3]!]);
    });

    test('a block at the cursor number is rejected and nothing of it is written', async (storage) => {
      const chain = makeChain({ blocks: 3 });
      await writeChain(storage, chain);
      const sibling = makeChain({ blocks: 1, parent: chain[1]!.block, seed: 'sibling' })[0]!;
      expect(sibling.block.number).toBe(2n);
      await expect(storage.writeBlock(sibling)).rejects.toThrow();
      await expectStoredChain(storage, chain, [sibling]);
    });

    test('a block below the cursor number is rejected and nothing of it is written', async (storage) => {
      const chain = makeChain({ blocks: 4 });
      await writeChain(storage, chain);
      const stale = makeChain({ blocks: 1, parent: chain[0]!.block, seed: 'stale' })[0]!;
      await expect(storage.writeBlock(stale)).rejects.toThrow();
      await expectStoredChain(storage, chain, [stale]);
    });

    test('a block naming the cursor as parent but not numbered cursor + 1 is rejected', async (storage) => {
      const chain = makeChain({ blocks: 2 });
      await writeChain(storage, chain);
      const cursorHash = chain[1]!.block.hash;
      const ahead = makeChain({ blocks: 1, startNumber: 3n, seed: 'ahead' })[0]!;
      const same = makeChain({ blocks: 1, startNumber: 1n, seed: 'same' })[0]!;
      ahead.block.parentHash = cursorHash;
      same.block.parentHash = cursorHash;
      await expect(storage.writeBlock(ahead)).rejects.toThrow();
      await expect(storage.writeBlock(same)).rejects.toThrow();
      await expectStoredChain(storage, chain, [ahead, same]);
    });

    test('writing the cursor block again is rejected and changes nothing', async (storage) => {
      const chain = makeChain({ blocks: 3 });
      await writeChain(storage, chain);
      await expect(storage.writeBlock(chain[2]!)).rejects.toThrow();
      await expectStoredChain(storage, chain);
    });

    test('a block with the next number but another parentHash is rejected and nothing of it is written', async (storage) => {
      const chain = makeChain({ blocks: 2 });
      await writeChain(storage, chain);
      const orphan = makeChain({ blocks: 1, startNumber: 2n, seed: 'orphan' })[0]!;
      expect(orphan.block.parentHash).not.toBe(chain[1]!.block.hash);
      await expect(storage.writeBlock(orphan)).rejects.toThrow();
      await expectStoredChain(storage, chain, [orphan]);
    });

    test('a reader running alongside writes sees each block whole or not at all', async (storage) => {
      const chain = makeChain({ blocks: 12, txPerBlock: 4 });
      let writing = true;
      const writer = writeChain(storage, chain).finally(() => {
        writing = false;
      });
      const reader = (async () => {
        for (let round = 0; writing; round++) {
          const cursor = await storage.getCursor();
          const atCursor = cursor && chain.find((b) => b.block.number === cursor.number);
          if (atCursor) {
            expect(await storage.getTransactions(atCursor.transactions.map((tx) => tx.hash))).toEqual(atCursor.transactions);
          }
          const probe = chain[round % chain.length]!;
          const lastTx = probe.transactions.at(-1)!;
          if (await storage.getTransaction(lastTx.hash)) {
            expect(await storage.getBlockByHash(probe.block.hash)).toEqual(probe.block);
            expect(await storage.getTransactions(probe.transactions.map((tx) => tx.hash))).toEqual(probe.transactions);
            expect(await storage.getTransactionLogs(lastTx.hash)).toEqual(
              probe.logs.filter((log) => log.transactionHash === lastTx.hash),
            );
          }
        }
      })();
      await Promise.all([writer, reader]);
      await expectStoredChain(storage, chain);
    });

    test('getBlockTransactionHashes lists a block’s transactions in index order', async (storage) => {
      const chain = makeChain({ blocks: 3, txPerBlock: 5 });
      await writeChain(storage, chain);
      for (const { block, transactions } of chain) {
        expect(await storage.getBlockTransactionHashes(block.number)).toEqual(transactions.map((tx) => tx.hash));
      }
    });

    test('getBlockTransactionHashes is empty for a block without transactions and for an unknown block', async (storage) => {
      const chain = makeChain({ blocks: 3, txPerBlock: (n) => (n === 1n ? 0 : 2) });
      await writeChain(storage, chain);
      expect(await storage.getBlockTransactionHashes(1n)).toEqual([]);
      expect(await storage.getBlockTransactionHashes(3n)).toEqual([]);
      expect(await storage.getBlockTransactionHashes(1_000_000n)).toEqual([]);
    });

    test('listRecentBlocks returns the newest `limit` blocks, newest first', async (storage) => {
      const chain = makeChain({ blocks: 6, txPerBlock: 1 });
      await writeChain(storage, chain);
      expect(await storage.listRecentBlocks(3)).toEqual([chain[5]!.block, chain[4]!.block, chain[3]!.block]);
      expect(await storage.listRecentBlocks(1)).toEqual([chain[5]!.block]);
    });

    test('listRecentBlocks returns every block when limit exceeds the count', async (storage) => {
      const chain = makeChain({ blocks: 3, txPerBlock: 1, startNumber: 40n });
      await writeChain(storage, chain);
      expect(await storage.listRecentBlocks(50)).toEqual(chain.map((b) => b.block).reverse());
    });

    test('listRecentBlocks is empty on an empty storage and for limit 0', async (storage) => {
      expect(await storage.listRecentBlocks(10)).toEqual([]);
      await writeChain(storage, makeChain({ blocks: 2 }));
      expect(await storage.listRecentBlocks(0)).toEqual([]);
    });

    test('unknown blocks resolve null on an empty storage', async (storage) => {
      expect(await storage.getBlockByNumber(0n)).toBeNull();
      expect(await storage.getBlockByHash(fixtureHash('nothing'))).toBeNull();
    });

    test('unknown blocks resolve null around stored ones', async (storage) => {
      const chain = makeChain({ blocks: 3, startNumber: 10n });
      await writeChain(storage, chain);
      expect(await storage.getBlockByNumber(9n)).toBeNull();
      expect(await storage.getBlockByNumber(13n)).toBeNull();
      expect(await storage.getBlockByNumber(0n)).toBeNull();
      expect(await storage.getBlockByHash(fixtureHash('nothing'))).toBeNull();
      expect(await storage.getBlockByHash(chain[0]!.block.parentHash)).toBeNull();
    });

    test('changing a bundle after writing it changes nothing stored', async (storage) => {
      const written = makeChain({ blocks: 2, txPerBlock: 4 });
      const pristine = makeChain({ blocks: 2, txPerBlock: 4 });
      await writeChain(storage, written);
      for (const bundle of written) {
        bundle.block.gasUsed += 1n;
        bundle.block.extraData = '0xdead' as Hex;
        for (const tx of bundle.transactions) tx.value += 1n;
        for (const log of bundle.logs) log.topics.push(fixtureHash('extra'));
        bundle.transactions.pop();
      }
      await expectStoredChain(storage, pristine);
    });
  });
}
