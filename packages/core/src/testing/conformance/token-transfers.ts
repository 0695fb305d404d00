import { describe, expect } from 'vitest';
import type { BlockBundle, StoredTokenTransfer } from '../../storage/records.js';
import { fixtureAddress, makeChain } from '../fixtures.js';
import { type StorageFactory, expectStoredChain, storageTest, writeChain } from './harness.js';

const MAX_UINT256 = 2n ** 256n - 1n;

/** A chain whose block `index` carries `transfers` (built by `make` from its first log) instead of its own. */
function chainWithTransfers(index: number, make: (bundle: BlockBundle) => StoredTokenTransfer[]): BlockBundle[] {
  const chain = makeChain({ blocks: 4, txPerBlock: 4 });
  const bundle = chain.find((b, i) => i >= index && b.logs.length > 0)!;
  bundle.tokenTransfers = make(bundle);
  return chain;
}

/** An ERC-1155 transfer carried by the bundle's first log. */
function erc1155(bundle: BlockBundle, batchIndex: number, changes: Partial<StoredTokenTransfer> = {}): StoredTokenTransfer {
  const log = bundle.logs[0]!;
  return {
    blockNumber: bundle.block.number,
    logIndex: log.logIndex,
    batchIndex,
    transactionHash: log.transactionHash,
    transactionIndex: log.transactionIndex,
    timestamp: bundle.block.timestamp,
    token: log.address,
    standard: 'ERC-1155',
    operator: fixtureAddress('operator'),
    from: fixtureAddress('sender'),
    to: fixtureAddress('recipient'),
    value: MAX_UINT256,
    tokenId: MAX_UINT256 - BigInt(batchIndex),
    ...changes,
  };
}

/** Token transfers: written with their block, read back exactly, counted per address, rolled back. */
export function tokenTransferTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('token transfers', () => {
    test('the fixture chain’s ERC-20 and ERC-721 transfers are stored and counted per address', async (storage) => {
      const chain = makeChain({ blocks: 12, txPerBlock: 5 });
      const standards = new Set(chain.flatMap((b) => b.tokenTransfers.map((t) => t.standard)));
      expect(standards).toEqual(new Set(['ERC-20', 'ERC-721']));
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
    });

    test('batch entries, operators, uint256 values and token ids round-trip exactly', async (storage) => {
      const chain = chainWithTransfers(1, (bundle) => [0, 1, 2].map((i) => erc1155(bundle, i)));
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
      expect(await storage.countAddressTokenTransfers(fixtureAddress('sender'))).toBe(3);
      expect(await storage.countAddressTokenTransfers(fixtureAddress('operator'))).toBe(0);
    });

    test('a transfer to oneself counts once', async (storage) => {
      const self = fixtureAddress('self');
      const chain = chainWithTransfers(0, (bundle) => [erc1155(bundle, 0, { from: self, to: self }), erc1155(bundle, 1, { to: self })]);
      await writeChain(storage, chain);
      expect(await storage.countAddressTokenTransfers(self)).toBe(2);
      expect(await storage.countAddressTokenTransfers(fixtureAddress('nobody'))).toBe(0);
    });

    test('rollbackTo takes back the transfers and counts of removed blocks, and a fork brings its own', async (storage) => {
      const chain = makeChain({ blocks: 10, txPerBlock: 5 });
      await writeChain(storage, chain);
      await storage.rollbackTo(chain[4]!.block.number);
      await expectStoredChain(storage, chain.slice(0, 5), chain.slice(5));
      const fork = makeChain({ blocks: 3, txPerBlock: 5, parent: chain[4]!.block, seed: 'fork' });
      await writeChain(storage, fork);
      await expectStoredChain(storage, [...chain.slice(0, 5), ...fork], chain.slice(5));
    });

    test('writeBlock refuses a transfer naming no log of the block or out of order, writing nothing', async (storage) => {
      const base = makeChain({ blocks: 4, txPerBlock: 4 });
      const index = base.findIndex((b, i) => i > 0 && b.logs.length > 0);
      const bundle = base[index]!;
      await writeChain(storage, base.slice(0, index));
      const noLog = { ...bundle, tokenTransfers: [erc1155(bundle, 0, { logIndex: 999 })] };
      const outOfOrder = { ...bundle, tokenTransfers: [erc1155(bundle, 1), erc1155(bundle, 0)] };
      const wrongBlock = { ...bundle, tokenTransfers: [erc1155(bundle, 0, { blockNumber: bundle.block.number + 7n })] };
      for (const bad of [noLog, outOfOrder, wrongBlock]) await expect(storage.writeBlock(bad)).rejects.toThrow(/writeBlock/);
      await expectStoredChain(storage, base.slice(0, index));
      await writeChain(storage, base.slice(index));
      await expectStoredChain(storage, base);
    });
  });
}
