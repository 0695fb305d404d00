import { describe, expect } from 'vitest';
import { fixtureAddress, makeChain } from '../fixtures.js';
import { chainAccounts, chainTransactions, referenceTotals } from '../reference.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

/** getChainTotals. */
export function totalsTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('getChainTotals', () => {
    test('are zero on an empty storage', async (storage) => {
      expect(await storage.getChainTotals()).toEqual({ totalTransactions: 0, totalAccounts: 0, totalContracts: 0 });
    });

    test('follow every write', async (storage) => {
      const chain = makeChain({ blocks: 6, txPerBlock: (n) => (n === 2n ? 0 : 3) });
      for (let i = 0; i < chain.length; i++) {
        await storage.writeBlock(chain[i]!);
        expect(await storage.getChainTotals()).toEqual(referenceTotals(chain.slice(0, i + 1)));
      }
    });

    test('totalTransactions counts every written transaction, failed ones included', async (storage) => {
      const chain = makeChain({ blocks: 5, txPerBlock: 4 });
      expect(chainTransactions(chain).some((tx) => tx.status === 0)).toBe(true);
      await writeChain(storage, chain);
      expect((await storage.getChainTotals()).totalTransactions).toBe(20);
    });

    test('totalAccounts counts distinct senders, recipients and created contracts', async (storage) => {
      const chain = makeChain({ blocks: 5, txPerBlock: 4, addresses: 6 });
      const self = chain[3]!.transactions.find((tx) => tx.contractAddress === null)!;
      self.from = fixtureAddress('self');
      self.to = self.from;
      await writeChain(storage, chain);
      const accounts = chainAccounts(chain);
      const contracts = chainTransactions(chain).filter((tx) => tx.contractAddress !== null).length;
      expect(accounts.length).toBeGreaterThan(contracts);
      expect((await storage.getChainTotals()).totalAccounts).toBe(accounts.length);
    });

    test('miners and log emitters are not accounts', async (storage) => {
      const chain = makeChain({ blocks: 3, txPerBlock: 3 });
      for (const bundle of chain) {
        bundle.block.miner = fixtureAddress('miner-only');
        for (const log of bundle.logs) log.address = fixtureAddress('log-only');
      }
      await writeChain(storage, chain);
      expect((await storage.getChainTotals()).totalAccounts).toBe(chainAccounts(chain).length);
    });

    test('totalContracts counts contract creations', async (storage) => {
      const chain = makeChain({ blocks: 5, txPerBlock: 4 });
      await writeChain(storage, chain);
      expect((await storage.getChainTotals()).totalContracts).toBe(4);
      expect(referenceTotals(chain).totalContracts).toBe(4);
    });
  });
}
