import { describe, expect } from 'vitest';
import { fixtureHash, makeChain } from '../fixtures.js';
import { chainLogs, chainTransactions } from '../reference.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

/** Transaction and log reads. */
export function transactionTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('transactions and logs', () => {
    test('every transaction reads back equal to what was written', async (storage) => {
      const chain = makeChain({ blocks: 5, txPerBlock: 4 });
      await writeChain(storage, chain);
      for (const tx of chainTransactions(chain)) expect(await storage.getTransaction(tx.hash)).toEqual(tx);
    });

    test('bigint fields beyond Number.MAX_SAFE_INTEGER read back exactly', async (storage) => {
      const [bundle] = makeChain({ blocks: 1, txPerBlock: 1 });
      const tx = bundle!.transactions[0]!;
      tx.value = 2n ** 256n - 1n;
      tx.gasPrice = 2n ** 64n + 7n;
      tx.effectiveGasPrice = 2n ** 64n + 3n;
      tx.nonce = 2n ** 63n + 1n;
      tx.gas = 2n ** 53n + 1n;
      bundle!.block.difficulty = 2n ** 128n + 5n;
      await storage.writeBlock(bundle!);
      expect(await storage.getTransaction(tx.hash)).toEqual(tx);
      expect((await storage.getTransaction(tx.hash))?.value).toBe(2n ** 256n - 1n);
      expect((await storage.getBlockByNumber(0n))?.difficulty).toBe(2n ** 128n + 5n);
    });

    test('a contract creation reads back with to null and contractAddress set', async (storage) => {
      const chain = makeChain({ blocks: 2, txPerBlock: 3 });
      const creation = chainTransactions(chain).find((tx) => tx.to === null)!;
      expect(creation.contractAddress).not.toBeNull();
      await writeChain(storage, chain);
      const stored = await storage.getTransaction(creation.hash);
      expect(stored).toEqual(creation);
      expect(stored?.to).toBeNull();
      expect(stored?.contractAddress).toBe(creation.contractAddress);
    });

    test('a failed transaction reads back with status 0', async (storage) => {
      const chain = makeChain({ blocks: 2, txPerBlock: 3 });
      const failed = chainTransactions(chain).find((tx) => tx.status === 0)!;
      expect(failed).toBeDefined();
      await writeChain(storage, chain);
      expect(await storage.getTransaction(failed.hash)).toEqual(failed);
    });

    test('a legacy transaction reads back with null EIP-1559 fee fields', async (storage) => {
      const chain = makeChain({ blocks: 1, txPerBlock: 3 });
      const legacy = chainTransactions(chain).find((tx) => tx.type === 0)!;
      expect(legacy.maxFeePerGas).toBeNull();
      await writeChain(storage, chain);
      const stored = await storage.getTransaction(legacy.hash);
      expect(stored).toEqual(legacy);
      expect(stored?.maxFeePerGas).toBeNull();
      expect(stored?.maxPriorityFeePerGas).toBeNull();
    });

    test('getTransaction of an unknown hash resolves null', async (storage) => {
      expect(await storage.getTransaction(fixtureHash('nothing'))).toBeNull();
      const chain = makeChain({ blocks: 1 });
      await writeChain(storage, chain);
      expect(await storage.getTransaction(fixtureHash('nothing'))).toBeNull();
      expect(await storage.getTransaction(chain[0]!.block.hash)).toBeNull();
    });

    test('getTransactions answers in input order with null for unknown hashes', async (storage) => {
      const chain = makeChain({ blocks: 3, txPerBlock: 2 });
      await writeChain(storage, chain);
      const [a, b, c] = [chain[2]!.transactions[1]!, chain[0]!.transactions[0]!, chain[1]!.transactions[0]!];
      const unknown = fixtureHash('unknown');
      expect(await storage.getTransactions([a.hash, unknown, b.hash, c.hash, a.hash])).toEqual([a, null, b, c, a]);
      expect(await storage.getTransactions([unknown])).toEqual([null]);
    });

    test('getTransactions of no hashes is empty', async (storage) => {
      await writeChain(storage, makeChain({ blocks: 1 }));
      expect(await storage.getTransactions([])).toEqual([]);
    });

    test('getTransactionLogs returns a transaction’s logs in logIndex order', async (storage) => {
      const chain = makeChain({ blocks: 6, txPerBlock: 4 });
      await writeChain(storage, chain);
      const logs = chainLogs(chain);
      const withSeveral = chainTransactions(chain).find(
        (tx) => logs.filter((log) => log.transactionHash === tx.hash).length > 1,
      );
      expect(withSeveral).toBeDefined();
      for (const tx of chainTransactions(chain)) {
        const expected = logs.filter((log) => log.transactionHash === tx.hash);
        expect(await storage.getTransactionLogs(tx.hash)).toEqual(expected);
      }
    });

    test('logs with one to four topics read back equal', async (storage) => {
      const chain = makeChain({ blocks: 6, txPerBlock: 4 });
      const logs = chainLogs(chain);
      expect(new Set(logs.map((log) => log.topics.length))).toEqual(new Set([1, 2, 3, 4]));
      await writeChain(storage, chain);
      for (const topicCount of [1, 2, 3, 4]) {
        const log = logs.find((l) => l.topics.length === topicCount)!;
        const stored = await storage.getTransactionLogs(log.transactionHash);
        expect(stored.find((l) => l.logIndex === log.logIndex)).toEqual(log);
      }
    });

    test('getTransactionLogs is empty for a transaction without logs and for an unknown hash', async (storage) => {
      const chain = makeChain({ blocks: 2, txPerBlock: 3 });
      const silent = chainTransactions(chain).find(
        (tx) => !chainLogs(chain).some((log) => log.transactionHash === tx.hash),
      )!;
      expect(silent).toBeDefined();
      await writeChain(storage, chain);
      expect(await storage.getTransaction(silent.hash)).not.toBeNull();
      expect(await storage.getTransactionLogs(silent.hash)).toEqual([]);
      expect(await storage.getTransactionLogs(fixtureHash('unknown'))).toEqual([]);
    });
  });
}
