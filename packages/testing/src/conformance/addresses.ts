import { describe, expect } from 'vitest';
import type { AddressTransactionsQuery, BlockBundle, Hex, StoredTransaction } from '@chainlens/core';
import { fixtureAddress, makeChain } from '../fixtures.js';
import { chainAccounts, chainTransactions, referenceAddressActivity, referenceAddressTransactions, referenceTransactionsBetween } from '../reference.js';
import { ALL, type StorageFactory, storageTest, writeChain } from './harness.js';

const busy = fixtureAddress('busy');

/** A fresh chain where `busy` sends transaction `i` of block `b` for every `[b, i]` of `spots`. */
function chainWithBusy(spots: [block: number, index: number][], blocks = 6, txPerBlock = 4): BlockBundle[] {
  const chain = makeChain({ blocks, txPerBlock });
  for (const [b, i] of spots) chain[b]!.transactions[i]!.from = busy;
  return chain;
}

/** The busy address's transactions in chain order, as the spots were given in chain order. */
function busyTransactions(chain: BlockBundle[]): StoredTransaction[] {
  return chainTransactions(chain).filter((tx) => tx.from === busy);
}

/** A transaction of `bundle` that creates nothing, so its `to` can be changed freely. */
function plainTransaction(bundle: BlockBundle): StoredTransaction {
  const tx = bundle.transactions.find((t) => t.contractAddress === null);
  if (!tx) throw new Error('fixture has no plain transaction');
  return tx;
}

function query(address: Hex, rest: Partial<AddressTransactionsQuery> = {}): AddressTransactionsQuery {
  return { address, page: 1, offset: ALL, sort: 'asc', ...rest };
}

/** listAddressTransactions and getAddressActivity. */
export function addressTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('listAddressTransactions', () => {
    test('lists what every address sent, received or created', async (storage) => {
      const chain = makeChain({ blocks: 8, txPerBlock: 4 });
      await writeChain(storage, chain);
      for (const address of chainAccounts(chain)) {
        expect(await storage.listAddressTransactions(query(address))).toEqual(
          referenceAddressTransactions(chain, address),
        );
      }
    });

    test('lists a transfer under its sender and under its recipient', async (storage) => {
      const chain = makeChain({ blocks: 3 });
      const tx = plainTransaction(chain[1]!);
      tx.from = fixtureAddress('sender-only');
      tx.to = fixtureAddress('recipient-only');
      await writeChain(storage, chain);
      expect(await storage.listAddressTransactions(query(tx.from))).toEqual([tx]);
      expect(await storage.listAddressTransactions(query(tx.to))).toEqual([tx]);
    });

    test('lists a contract creation under its sender and under the created contract', async (storage) => {
      const chain = makeChain({ blocks: 3 });
      const creation = chainTransactions(chain).find((tx) => tx.contractAddress !== null)!;
      creation.from = fixtureAddress('deployer');
      await writeChain(storage, chain);
      expect(await storage.listAddressTransactions(query(creation.from))).toEqual([creation]);
      const contractTxs = await storage.listAddressTransactions(query(creation.contractAddress!));
      expect(contractTxs[0]).toEqual(creation);
      expect(contractTxs).toEqual(referenceAddressTransactions(chain, creation.contractAddress!));
    });

    test('lists a self-send once', async (storage) => {
      const chain = makeChain({ blocks: 2 });
      const tx = plainTransaction(chain[1]!);
      tx.from = fixtureAddress('self');
      tx.to = tx.from;
      await writeChain(storage, chain);
      expect(await storage.listAddressTransactions(query(tx.from))).toEqual([tx]);
      expect(await storage.listAddressTransactions(query(tx.from, { sort: 'desc' }))).toEqual([tx]);
    });

    test('asc orders by block number then transaction index', async (storage) => {
      const chain = chainWithBusy([[1, 1], [1, 3], [2, 0], [2, 2], [4, 3]]);
      await writeChain(storage, chain);
      const expected = [
        chain[1]!.transactions[1]!,
        chain[1]!.transactions[3]!,
        chain[2]!.transactions[0]!,
        chain[2]!.transactions[2]!,
        chain[4]!.transactions[3]!,
      ];
      expect(await storage.listAddressTransactions(query(busy, { sort: 'asc' }))).toEqual(expected);
    });

    test('desc is the exact reverse of asc', async (storage) => {
      const chain = chainWithBusy([[0, 2], [1, 1], [1, 3], [2, 0], [5, 1]]);
      await writeChain(storage, chain);
      expect(await storage.listAddressTransactions(query(busy, { sort: 'desc' }))).toEqual(
        busyTransactions(chain).reverse(),
      );
    });

    test('the block range is inclusive at both ends', async (storage) => {
      const chain = chainWithBusy([[0, 0], [1, 0], [2, 0], [2, 3], [3, 1], [4, 0], [5, 0]]);
      await writeChain(storage, chain);
      const inRange = busyTransactions(chain).filter((tx) => tx.blockNumber >= 2n && tx.blockNumber <= 4n);
      expect(inRange).toHaveLength(4);
      expect(await storage.listAddressTransactions(query(busy, { startBlock: 2n, endBlock: 4n }))).toEqual(inRange);
      expect(
        await storage.listAddressTransactions(query(busy, { startBlock: 2n, endBlock: 4n, sort: 'desc' })),
      ).toEqual([...inRange].reverse());
      expect(await storage.listAddressTransactions(query(busy, { startBlock: 3n, endBlock: 3n }))).toEqual([
        chain[3]!.transactions[1]!,
      ]);
    });

    test('startBlock alone and endBlock alone bound one side', async (storage) => {
      const chain = chainWithBusy([[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]);
      await writeChain(storage, chain);
      const all = busyTransactions(chain);
      expect(await storage.listAddressTransactions(query(busy, { startBlock: 4n }))).toEqual(all.slice(4));
      expect(await storage.listAddressTransactions(query(busy, { endBlock: 1n }))).toEqual(all.slice(0, 2));
      expect(await storage.listAddressTransactions(query(busy, { startBlock: 0n }))).toEqual(all);
    });

    test('a range holding none of the address’s transactions is empty', async (storage) => {
      const chain = chainWithBusy([[0, 0], [4, 0]]);
      await writeChain(storage, chain);
      expect(await storage.listAddressTransactions(query(busy, { startBlock: 1n, endBlock: 3n }))).toEqual([]);
      expect(await storage.listAddressTransactions(query(busy, { startBlock: 5n }))).toEqual([]);
      expect(await storage.listAddressTransactions(query(busy, { startBlock: 100n }))).toEqual([]);
      expect(await storage.listAddressTransactions(query(busy, { startBlock: 4n, endBlock: 0n }))).toEqual([]);
    });

    test('page p of size o holds items (p-1)*o … p*o-1, ascending and descending', async (storage) => {
      const spots: [number, number][] = [];
      for (let b = 0; b < 5; b++) spots.push([b, 0], [b, 2]);
      const chain = chainWithBusy(spots);
      await writeChain(storage, chain);
      const asc = busyTransactions(chain);
      expect(asc).toHaveLength(10);
      const desc = [...asc].reverse();
      for (const offset of [1, 3, 4, 10]) {
        for (let page = 1; page <= Math.ceil(10 / offset); page++) {
          const slice = [(page - 1) * offset, page * offset] as const;
          expect(await storage.listAddressTransactions(query(busy, { page, offset }))).toEqual(asc.slice(...slice));
          expect(await storage.listAddressTransactions(query(busy, { page, offset, sort: 'desc' }))).toEqual(
            desc.slice(...slice),
          );
        }
      }
    });

    test('listAddressTransactionHashes answers the hashes of the same page, in its order', async (storage) => {
      const chain = chainWithBusy([[0, 0], [1, 1], [1, 3], [2, 0], [3, 2], [4, 1], [4, 3]]);
      await writeChain(storage, chain);
      for (const sort of ['asc', 'desc'] as const) {
        for (const rest of [{ page: 1, offset: 3 }, { page: 2, offset: 3 }, { page: 3, offset: 3 }, { page: 1, offset: ALL, startBlock: 1n, endBlock: 3n }, { page: 5, offset: 3 }]) {
          const page = await storage.listAddressTransactions(query(busy, { sort, ...rest }));
          expect(await storage.listAddressTransactionHashes(query(busy, { sort, ...rest }))).toEqual(page.map((tx) => tx.hash));
        }
      }
      expect(await storage.listAddressTransactionHashes(query(busy, { page: 0, offset: 3 }))).toEqual([]);
      expect(await storage.listAddressTransactionHashes(query(fixtureAddress('nobody')))).toEqual([]);
    });

    test('a page past the end is empty', async (storage) => {
      const chain = chainWithBusy([[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]);
      await writeChain(storage, chain);
      expect(await storage.listAddressTransactions(query(busy, { page: 2, offset: 5 }))).toEqual([]);
      expect(await storage.listAddressTransactions(query(busy, { page: 3, offset: 2, sort: 'desc' }))).toHaveLength(1);
      expect(await storage.listAddressTransactions(query(busy, { page: 4, offset: 2, sort: 'desc' }))).toEqual([]);
      expect(await storage.listAddressTransactions(query(busy, { page: 1_000, offset: 10 }))).toEqual([]);
    });

    test('the block range filters before paging', async (storage) => {
      const chain = chainWithBusy([[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]);
      await writeChain(storage, chain);
      const all = busyTransactions(chain);
      const range = { startBlock: 2n, endBlock: 5n };
      expect(await storage.listAddressTransactions(query(busy, { ...range, page: 1, offset: 2 }))).toEqual(all.slice(2, 4));
      expect(await storage.listAddressTransactions(query(busy, { ...range, page: 2, offset: 2 }))).toEqual(all.slice(4, 6));
      expect(await storage.listAddressTransactions(query(busy, { ...range, page: 1, offset: 3, sort: 'desc' }))).toEqual(
        [all[5], all[4], all[3]],
      );
      expect(await storage.listAddressTransactions(query(busy, { ...range, page: 3, offset: 2 }))).toEqual([]);
    });

    test('an unknown address has no transactions', async (storage) => {
      expect(await storage.listAddressTransactions(query(fixtureAddress('nobody')))).toEqual([]);
      await writeChain(storage, makeChain({ blocks: 3 }));
      expect(await storage.listAddressTransactions(query(fixtureAddress('nobody')))).toEqual([]);
      expect(await storage.listAddressTransactions(query(fixtureAddress('nobody'), { sort: 'desc' }))).toEqual([]);
    });
  });

  describe('getAddressActivity', () => {
    test('counts an address’s transactions and reports its first and last block timestamps', async (storage) => {
      const chain = chainWithBusy([[1, 0], [1, 2], [4, 1]]);
      await writeChain(storage, chain);
      expect(await storage.getAddressActivity(busy)).toEqual({
        transactionCount: 3,
        firstSeen: chain[1]!.block.timestamp,
        lastSeen: chain[4]!.block.timestamp,
      });
    });

    test('matches the transactions listed for every address', async (storage) => {
      const chain = makeChain({ blocks: 8, txPerBlock: 4 });
      await writeChain(storage, chain);
      for (const address of chainAccounts(chain)) {
        const activity = await storage.getAddressActivity(address);
        expect(activity).toEqual(referenceAddressActivity(chain, address));
        expect(activity.transactionCount).toBe((await storage.listAddressTransactions(query(address))).length);
      }
    });

    test('counts a self-send once', async (storage) => {
      const chain = makeChain({ blocks: 3 });
      const tx = plainTransaction(chain[2]!);
      tx.from = fixtureAddress('self');
      tx.to = tx.from;
      await writeChain(storage, chain);
      expect(await storage.getAddressActivity(tx.from)).toEqual({
        transactionCount: 1,
        firstSeen: chain[2]!.block.timestamp,
        lastSeen: chain[2]!.block.timestamp,
      });
    });

    test('a created contract is first seen in its creation block', async (storage) => {
      const chain = makeChain({ blocks: 6, txPerBlock: 4 });
      const creation = chainTransactions(chain).find((tx) => tx.contractAddress !== null)!;
      await writeChain(storage, chain);
      const activity = await storage.getAddressActivity(creation.contractAddress!);
      expect(activity.firstSeen).toBe(chain.find((b) => b.block.hash === creation.blockHash)!.block.timestamp);
      expect(activity).toEqual(referenceAddressActivity(chain, creation.contractAddress!));
    });

    test('an unknown address has count 0 and no first or last activity', async (storage) => {
      const none = { transactionCount: 0, firstSeen: null, lastSeen: null };
      expect(await storage.getAddressActivity(fixtureAddress('nobody'))).toEqual(none);
      await writeChain(storage, makeChain({ blocks: 3 }));
      expect(await storage.getAddressActivity(fixtureAddress('nobody'))).toEqual(none);
    });

    test('the transactions two addresses share, in both orders and paged, whichever side is busier', async (storage) => {
      const chain = makeChain({ blocks: 12, txPerBlock: 5, addresses: 5 });
      const contract = chainTransactions(chain).find((tx) => tx.contractAddress !== null)!;
      await writeChain(storage, chain);
      const accounts = chainAccounts(chain).slice(0, 6);
      for (const address of accounts) {
        for (const counterparty of accounts) {
          for (const [page, offset, sort] of [[1, ALL, 'asc'], [1, 2, 'desc'], [2, 2, 'desc'], [3, 1, 'asc']] as const) {
            const between = { address, counterparty, page, offset, sort };
            expect(await storage.listTransactionsBetween(between), `${address} ${counterparty} ${page}/${offset} ${sort}`).toEqual(referenceTransactionsBetween(chain, between));
          }
        }
      }
      const creation = { address: contract.from, counterparty: contract.contractAddress!, page: 1, offset: ALL, sort: 'asc' } as const;
      expect(await storage.listTransactionsBetween(creation)).toContainEqual(contract);
      expect(await storage.listTransactionsBetween({ ...creation, counterparty: fixtureAddress('stranger') })).toEqual([]);
    });
  });
}
