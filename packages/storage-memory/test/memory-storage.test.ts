import { ConfigError, type BlockBundle } from '@chainlens/core';
import { chainTransactions, fixtureAddress, makeChain, referenceTotals } from '@chainlens/testing';
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../src/index.js';

/** What the memory backend promises beyond the shared contract. */
describe('memoryStorage', () => {
  it('returns frozen records, so callers cannot change what is stored', async () => {
    const chain = makeChain({ blocks: 2, txPerBlock: 4 });
    const storage = memoryStorage({ initialBlocks: chain });
    const block = (await storage.getBlockByNumber(1n))!;
    const tx = (await storage.getTransaction(chain[1]!.transactions[0]!.hash))!;
    const log = chain[1]!.logs[0]!;
    const [storedLog] = await storage.getTransactionLogs(log.transactionHash);
    expect(() => ((block as { gasUsed: bigint }).gasUsed = 0n)).toThrow(TypeError);
    expect(() => ((tx as { value: bigint }).value = 0n)).toThrow(TypeError);
    expect(() => storedLog!.topics.push(log.address)).toThrow(TypeError);
    expect(await storage.getBlockByNumber(1n)).toEqual(chain[1]!.block);
    expect(await storage.getTransaction(tx.hash)).toEqual(chain[1]!.transactions[0]);
  });

  it('returns fresh arrays that callers may change', async () => {
    const chain = makeChain({ blocks: 2, txPerBlock: 4 });
    const storage = memoryStorage({ initialBlocks: chain });
    const hashes = await storage.getBlockTransactionHashes(1n);
    hashes.pop();
    const logs = await storage.getTransactionLogs(chain[1]!.logs[0]!.transactionHash);
    logs.length = 0;
    expect(await storage.getBlockTransactionHashes(1n)).toHaveLength(4);
    expect(await storage.getTransactionLogs(chain[1]!.logs[0]!.transactionHash)).not.toHaveLength(0);
  });

  it('preloads initialBlocks in order', async () => {
    const chain = makeChain({ blocks: 5, startNumber: 100n });
    const storage = memoryStorage({ initialBlocks: chain });
    expect(await storage.getCursor()).toEqual({ number: 104n, hash: chain[4]!.block.hash });
    expect(await storage.getChainTotals()).toEqual(referenceTotals(chain));
  });

  it('throws from the factory when initialBlocks are not parent-linked', () => {
    const chain = makeChain({ blocks: 3 });
    expect(() => memoryStorage({ initialBlocks: [chain[0]!, chain[2]!] })).toThrow(/not the child/);
  });

  describe('rejects an inconsistent bundle and writes nothing of it', () => {
    const cases = {
      'a transaction of another block': (b: BlockBundle) => {
        b.transactions[1]!.blockHash = b.block.parentHash;
      },
      'transactions out of index order': (b: BlockBundle) => {
        b.transactions.reverse();
      },
      'a duplicate transaction hash': (b: BlockBundle) => {
        b.transactions.push({ ...b.transactions[0]!, transactionIndex: 9 });
      },
      'a log of no transaction in the bundle': (b: BlockBundle) => {
        b.logs.push({ ...b.logs[0]!, transactionHash: b.block.hash, logIndex: 99 });
      },
      'logs out of logIndex order': (b: BlockBundle) => {
        b.logs.push({ ...b.logs[0]! });
      },
    };
    for (const [name, corrupt] of Object.entries(cases)) {
      it(name, async () => {
        const chain = makeChain({ blocks: 4, txPerBlock: 4 });
        const storage = memoryStorage({ initialBlocks: chain.slice(0, 3) });
        const bad = chain[3]!;
        expect(bad.logs.length).toBeGreaterThan(0);
        corrupt(bad);
        await expect(storage.writeBlock(bad)).rejects.toThrow(/writeBlock/);
        expect(await storage.getCursor()).toEqual({ number: 2n, hash: chain[2]!.block.hash });
        expect(await storage.getChainTotals()).toEqual(referenceTotals(chain.slice(0, 3)));
        for (const tx of bad.transactions) {
          if (!chainTransactions(chain.slice(0, 3)).some((t) => t.hash === tx.hash)) {
            expect(await storage.getTransaction(tx.hash)).toBeNull();
          }
        }
      });
    }
  });

  it('answers an empty page for page or offset below 1', async () => {
    const chain = makeChain({ blocks: 3 });
    const storage = memoryStorage({ initialBlocks: chain });
    const address = chain[0]!.transactions[0]!.from;
    expect(await storage.listAddressTransactions({ address, page: 0, offset: 10, sort: 'asc' })).toEqual([]);
    expect(await storage.listAddressTransactions({ address, page: 1, offset: 0, sort: 'desc' })).toEqual([]);
    expect(await storage.listAddressTransactions({ address: fixtureAddress('x'), page: 1, offset: 1, sort: 'asc' })).toEqual([]);
  });

  it('pages a block range of a long address history, newest first', async () => {
    const busy = fixtureAddress('busy');
    const chain = makeChain({ blocks: 1_000, txPerBlock: 5 });
    for (const bundle of chain) bundle.transactions[2]!.from = busy;
    const storage = memoryStorage({ initialBlocks: chain });
    const page = await storage.listAddressTransactions({
      address: busy,
      startBlock: 200n,
      endBlock: 799n,
      page: 3,
      offset: 10,
      sort: 'desc',
    });
    expect(page.map((tx) => tx.blockNumber)).toEqual(Array.from({ length: 10 }, (_, i) => 779n - BigInt(i)));
    expect(await storage.getAddressActivity(busy)).toMatchObject({ transactionCount: 1_000 });
  });

  describe('counters', () => {
    const now = 1_700_000_000_000;
    const hit = (key: string, amount: number) => ({ key, amount, expiresAt: now + 60_000 });

    it('keeps at most maxCounters, dropping the least recently hit first', async () => {
      const storage = memoryStorage({ maxCounters: 2 });
      await storage.hitCounters([hit('a', 1), hit('b', 1)], now);
      await storage.hitCounters([hit('a', 1)], now);
      await storage.hitCounters([hit('c', 1)], now);
      expect(await storage.hitCounters([hit('b', 0), hit('a', 0), hit('c', 0)], now)).toEqual([0, 2, 1]);
    });

    it('counts a read as use, and a read of an absent counter takes no room', async () => {
      const storage = memoryStorage({ maxCounters: 2 });
      await storage.hitCounters([hit('a', 1), hit('b', 1)], now);
      await storage.hitCounters([hit('a', 0), hit('x', 0), hit('y', 0)], now);
      await storage.hitCounters([hit('c', 1)], now);
      expect(await storage.hitCounters([hit('a', 0), hit('b', 0), hit('c', 0)], now)).toEqual([1, 0, 1]);
    });

    for (const maxCounters of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      it(`throws a ConfigError for maxCounters ${maxCounters}`, () => {
        expect(() => memoryStorage({ maxCounters })).toThrow(ConfigError);
        expect(() => memoryStorage({ maxCounters })).toThrow(/memoryStorage\.maxCounters/);
      });
    }
  });
});
