import { memoryStorage } from '@chainlens/storage-memory';
import { describe, expect, it } from 'vitest';
import type { ChainClient } from '../chain/chain-client.js';
import { createEventHub } from '../events/index.js';
import { IndexedHead } from '../events/indexed-head.js';
import type { AddressTransactionsQuery, Storage } from '../storage/index.js';
import { chainTransactions, makeChain } from '@chainlens/testing';
import { AccountService } from './account-service.js';
import { ChainRecordCache } from './chain-record-cache.js';
import { formatTransaction } from './format.js';
import { LabelService } from '../features/labels/label-service.js';
import { LabelsVersion } from '../features/labels/labels-version.js';

const chain = makeChain({ blocks: 6, txPerBlock: 4 });
const sender = chainTransactions(chain)[5]!.from;
const query: AddressTransactionsQuery = { address: sender, page: 1, offset: 1_000, sort: 'desc' };
/** The labels the service shows: the sender's. */
const labels = new Map([[sender, 'The sender']]);

/** Memory storage holding `chain`, counting full-record reads, and the service over it. */
async function service(): Promise<{ accounts: AccountService; storage: Storage; reads: { records: number; pages: number } }> {
  const storage = memoryStorage();
  await storage.init();
  for (const bundle of chain) await storage.writeBlock(bundle);
  await storage.putAddressLabel({ address: sender, label: 'The sender', category: null, note: null, updatedAt: '2026-11-01T00:00:00.000Z' });
  const reads = { records: 0, pages: 0 };
  const getTransactions = storage.getTransactions.bind(storage);
  storage.getTransactions = (hashes) => {
    reads.records += hashes.length;
    return getTransactions(hashes);
  };
  const listAddressTransactions = storage.listAddressTransactions.bind(storage);
  storage.listAddressTransactions = (q) => {
    reads.pages++;
    return listAddressTransactions(q);
  };
  const hub = createEventHub();
  const labelService = new LabelService(storage, new LabelsVersion(storage, 60_000), { maxPrivatePerUser: 10, cacheEntries: 100, now: Date.now });
  const accounts = new AccountService(storage, new IndexedHead(storage, hub, 60_000), {} as ChainClient, new ChainRecordCache(hub, 1_000_000), labelService);
  return { accounts, storage, reads };
}

describe('AccountService.transactions', () => {
  it('reads the page of an address seldom read whole, in one pass; once its records are kept, pages read only their hashes', async () => {
    const { accounts, storage, reads } = await service();
    const expected = (await storage.listAddressTransactions(query)).map((tx) => formatTransaction(tx, 5n, labels));
    reads.pages = 0;
    expect(expected.length).toBeGreaterThan(1);
    expect(await accounts.transactions(query)).toEqual(expected);
    expect(reads).toEqual({ pages: 1, records: 0 });
    // The first read kept the records; the second finds them kept, so the third reads hashes only.
    expect(await accounts.transactions({ ...query, sort: 'asc' })).toEqual([...expected].reverse());
    expect(await accounts.transactions(query)).toEqual(expected);
    expect(reads).toEqual({ pages: 2, records: 0 });
  });

  it('reads the page whole when a listed transaction is gone by the time its record is read (a reorg between the reads)', async () => {
    const { accounts, storage, reads } = await service();
    const expected = (await storage.listAddressTransactions(query)).map((tx) => formatTransaction(tx, 5n, labels));
    await accounts.transactions(query);
    await accounts.transactions(query);
    const listHashes = storage.listAddressTransactionHashes.bind(storage);
    storage.listAddressTransactionHashes = async (q) => [`0x${'ab'.repeat(32)}`, ...(await listHashes(q))];
    reads.pages = 0;
    expect(await accounts.transactions(query)).toEqual(expected);
    expect(reads.pages).toBe(1);
  });
});
