import { describe, expect } from 'vitest';
import type { BlockBundle, Hex, KeysetQuery, Storage } from '@chainlens/core';
import { makeChain } from '../fixtures.js';
import {
  referenceAddressInternalTransactionsAfter,
  referenceAddressLogsAfter,
  referenceAddressTokenTransfersAfter,
  referenceAddressTransactionsAfter,
} from '../insight-reference.js';
import { withInternalTransactions } from '../internal-transaction-fixtures.js';
import { chainAccounts, tokenTransferParties } from '../reference.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

/** One keyset read of each kind, with its reference and the position its last record names. */
const KINDS = {
  transactions: {
    read: (storage: Storage, query: KeysetQuery<never>) => storage.listAddressTransactionsAfter(query),
    reference: referenceAddressTransactionsAfter,
    position: (r: { blockNumber: bigint; transactionIndex: number }) => ({ blockNumber: r.blockNumber, transactionIndex: r.transactionIndex }),
  },
  internal: {
    read: (storage: Storage, query: KeysetQuery<never>) => storage.listAddressInternalTransactionsAfter(query),
    reference: referenceAddressInternalTransactionsAfter,
    position: (r: { blockNumber: bigint; transactionIndex: number; traceIndex: number }) => ({ blockNumber: r.blockNumber, transactionIndex: r.transactionIndex, traceIndex: r.traceIndex }),
  },
  transfers: {
    read: (storage: Storage, query: KeysetQuery<never>) => storage.listAddressTokenTransfersAfter(query),
    reference: referenceAddressTokenTransfersAfter,
    position: (r: { blockNumber: bigint; logIndex: number; batchIndex: number }) => ({ blockNumber: r.blockNumber, logIndex: r.logIndex, batchIndex: r.batchIndex }),
  },
  logs: {
    read: (storage: Storage, query: KeysetQuery<never>) => storage.listAddressLogsAfter(query),
    reference: referenceAddressLogsAfter,
    position: (r: { blockNumber: bigint; logIndex: number }) => ({ blockNumber: r.blockNumber, logIndex: r.logIndex }),
  },
} as const;

/** Walks every keyset page of `kind` for `query` with pages of `limit`, checking each against the reference. */
async function walk(storage: Storage, chain: readonly BlockBundle[], kind: keyof typeof KINDS, query: Omit<KeysetQuery<unknown>, 'limit' | 'after'>, limit: number) {
  const { read, reference, position } = KINDS[kind] as unknown as {
    read: (storage: Storage, query: KeysetQuery<unknown>) => Promise<{ blockNumber: bigint }[]>;
    reference: (chain: readonly BlockBundle[], query: KeysetQuery<unknown>) => { blockNumber: bigint }[];
    position: (record: { blockNumber: bigint }) => unknown;
  };
  const all: unknown[] = [];
  let after: unknown;
  for (;;) {
    const page = { ...query, limit, ...(after !== undefined && { after }) };
    const records = await read(storage, page);
    expect(records, `${kind} of ${query.address} after ${JSON.stringify(after, (_, v) => (typeof v === 'bigint' ? `${v}` : v))}`).toEqual(reference(chain, page));
    all.push(...records);
    if (records.length < limit) break;
    after = position(records.at(-1)!);
  }
  expect(all).toEqual(reference(chain, { ...query, limit: 1_000_000 }));
}

/** The keyset reads exports page with: every record once, in chain order, from where the last page ended. */
export function exportTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('keyset pages of an address', () => {
    test('walk transactions, internal transactions, token transfers and logs page by page, each exactly once', async (storage) => {
      const chain = withInternalTransactions(makeChain({ blocks: 12, txPerBlock: 5 }));
      await writeChain(storage, chain);
      const addresses = new Set<Hex>([...chainAccounts(chain), ...tokenTransferParties(chain)]);
      for (const address of addresses) {
        for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) await walk(storage, chain, kind, { address }, 2);
      }
    });

    test('keep to the block range, and answer nothing past it or for a limit below one', async (storage) => {
      const chain = withInternalTransactions(makeChain({ blocks: 12, txPerBlock: 5 }));
      await writeChain(storage, chain);
      const address = chainAccounts(chain)[0]!;
      for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
        await walk(storage, chain, kind, { address, startBlock: 3n, endBlock: 8n }, 3);
        await walk(storage, chain, kind, { address, startBlock: 20n }, 3);
        expect(await KINDS[kind].read(storage, { address, limit: 0 })).toEqual([]);
      }
    });
  });
}
