import { describe, expect } from 'vitest';
import type { BlockBundle, StoredContractCreation } from '@chainlens/core';
import { fixtureAddress, makeChain } from '../fixtures.js';
import { INNER_RECREATED, withInnerCreations } from '../trace-fixtures.js';
import { type StorageFactory, expectStoredChain, storageTest, writeChain } from './harness.js';

/** Contract creations: the latest creation per address, rolled back exactly. */
export function contractTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('contract creations', () => {
    test('a transaction’s own creation and the ones inside it are read back, the latest creation of an address winning', async (storage) => {
      const chain = withInnerCreations(makeChain({ blocks: 8, txPerBlock: 3 }));
      expect(chain.flatMap((b) => b.contracts).filter((c) => c.traceIndex === 0).length).toBeGreaterThan(0);
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
      const last = chain.flatMap((b) => b.contracts).filter((c) => c.address === INNER_RECREATED).at(-1);
      expect(await storage.getContractCreation(INNER_RECREATED)).toEqual(last);
      expect(await storage.getContractCreation(fixtureAddress('never-created'))).toBeNull();
    });

    test('rollbackTo brings back the earlier creation of a re-created address, and forgets the rolled-away ones', async (storage) => {
      const chain = withInnerCreations(makeChain({ blocks: 8, txPerBlock: 3 }));
      await writeChain(storage, chain);
      for (const cut of [5, 2, 0]) {
        await storage.rollbackTo(chain[cut]!.block.number);
        await expectStoredChain(storage, chain.slice(0, cut + 1), chain.slice(cut + 1));
      }
      await writeChain(storage, chain.slice(1));
      await expectStoredChain(storage, chain);
    });

    test('writeBlock refuses a creation naming no transaction of the block, or out of order, writing nothing', async (storage) => {
      const chain = withInnerCreations(makeChain({ blocks: 8, txPerBlock: 3 }));
      const index = chain.findIndex((b, i) => i > 0 && b.contracts.length > 1);
      const bundle = chain[index]!;
      const [first, second] = bundle.contracts as [StoredContractCreation, StoredContractCreation];
      await writeChain(storage, chain.slice(0, index));
      const bad: BlockBundle[] = [
        { ...bundle, contracts: [{ ...first, transactionHash: fixtureAddress('x').padEnd(66, '0') as StoredContractCreation['transactionHash'] }] },
        { ...bundle, contracts: [{ ...first, blockNumber: first.blockNumber + 1n }] },
        { ...bundle, contracts: [second, first] },
        { ...bundle, contracts: [first, first] },
      ];
      for (const bundleOfBad of bad) await expect(storage.writeBlock(bundleOfBad)).rejects.toThrow(/writeBlock/);
      await expectStoredChain(storage, chain.slice(0, index));
      await writeChain(storage, chain.slice(index));
      await expectStoredChain(storage, chain);
    });
  });
}
