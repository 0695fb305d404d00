import { describe, expect } from 'vitest';
import type { AddressLogsQuery, BlockBundle, Hex } from '@chainlens/core';
import { redecode } from '../dex-fixtures.js';
import { fixtureAddress, fixtureHash, makeChain } from '../fixtures.js';
import { chainLogs, referenceAddressLogs, withGas } from '../reference.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

const EMITTER = fixtureAddress('emitter');
const PING = fixtureHash('Ping(string)');

/** A fixture chain in which `EMITTER` emitted every third log (with `PING` as topic0 every other time). */
function chainWithEmitter(): BlockBundle[] {
  const chain = makeChain({ blocks: 12, txPerBlock: 4 });
  chainLogs(chain).forEach((log, i) => {
    if (i % 3 !== 0) return;
    log.address = EMITTER;
    if (i % 2 === 0) log.topics = [PING, ...log.topics.slice(1)];
  });
  for (const bundle of chain) redecode(bundle);
  return chain;
}

/**
 * `chain` with every other log of a block emitted by `EMITTER`, so it emits in every block and
 * several times in most.
 */
function emitterInEveryBlock(chain: BlockBundle[]): BlockBundle[] {
  for (const bundle of chain) {
    bundle.logs.forEach((log, i) => {
      if (i % 2 === 0) log.address = EMITTER;
    });
    redecode(bundle);
  }
  return chain;
}

/** A contract's logs: filtered by block range and first topic, sorted and paged. */
export function logTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('logs by address', () => {
    test('pages a contract’s logs in both orders, within block ranges and by first topic', async (storage) => {
      const chain = chainWithEmitter();
      await writeChain(storage, chain);
      const all = referenceAddressLogs(chain, { address: EMITTER, page: 1, offset: 10_000, sort: 'asc' });
      expect(all.length).toBeGreaterThan(8);
      const middle = all[Math.floor(all.length / 2)]!.blockNumber;
      const queries: AddressLogsQuery[] = [];
      for (const sort of ['asc', 'desc'] as const) {
        for (const topic0 of [undefined, PING, fixtureHash('never')] as (Hex | undefined)[]) {
          queries.push(
            { address: EMITTER, topic0, page: 1, offset: 3, sort },
            { address: EMITTER, topic0, page: 2, offset: 3, sort },
            { address: EMITTER, topic0, page: 40, offset: 3, sort },
            { address: EMITTER, topic0, startBlock: middle, page: 1, offset: 100, sort },
            { address: EMITTER, topic0, endBlock: middle, page: 1, offset: 100, sort },
            { address: EMITTER, topic0, startBlock: middle, endBlock: middle, page: 1, offset: 100, sort },
          );
        }
      }
      for (const query of queries) expect(await storage.listAddressLogs(query), JSON.stringify(query, (_, v) => (typeof v === 'bigint' ? String(v) : v))).toEqual(referenceAddressLogs(chain, query));
      expect(await storage.listAddressLogs({ address: fixtureAddress('silent'), page: 1, offset: 10, sort: 'asc' })).toEqual([]);
    });

    test('rollbackTo takes a contract’s logs of removed blocks away', async (storage) => {
      const chain = chainWithEmitter();
      await writeChain(storage, chain);
      await storage.rollbackTo(chain[5]!.block.number);
      const query = { address: EMITTER, page: 1, offset: 10_000, sort: 'desc' } as const;
      expect(await storage.listAddressLogs(query)).toEqual(referenceAddressLogs(chain.slice(0, 6), query));
      expect(await storage.listAddressLogs({ ...query, topic0: PING })).toEqual(referenceAddressLogs(chain.slice(0, 6), { ...query, topic0: PING }));
    });

    test('after a rollback and a fork, a contract’s log pages are exact in both orders, its kept and new logs in one sequence', async (storage) => {
      // The contract emits in the kept, the removed and the fork's blocks, several times in most
      // of them: the places its logs take in chain order stay consecutive across the fork.
      const chain = emitterInEveryBlock(makeChain({ blocks: 10, txPerBlock: 5 }));
      await writeChain(storage, chain);
      const emitted = (bundles: BlockBundle[]) => chainLogs(bundles).filter((log) => log.address === EMITTER).length;
      const tipOf = (bundles: BlockBundle[]) => ({ length: emitted(bundles), blockNumber: chainLogs(bundles).findLast((log) => log.address === EMITTER)!.blockNumber });
      expect(await storage.getAddressLogTip(EMITTER)).toEqual(tipOf(chain));
      await storage.rollbackTo(5n);
      // The tip (length and newest block) follows the rollback and then the fork.
      expect(await storage.getAddressLogTip(EMITTER)).toEqual(tipOf(chain.slice(0, 6)));
      const fork = emitterInEveryBlock(makeChain({ blocks: 6, txPerBlock: 4, parent: chain[5]!.block, seed: 'fork' }));
      await writeChain(storage, fork);
      const stored = [...chain.slice(0, 6), ...fork];
      expect(await storage.getAddressLogTip(EMITTER)).toEqual(tipOf(stored));
      expect(await storage.getAddressLogTip(fixtureAddress('silent'))).toBeNull();
      expect([chain.slice(0, 6), chain.slice(6), fork].every((bundles) => emitted(bundles) > bundles.length)).toBe(true);
      const count = emitted(stored);
      const described = (query: AddressLogsQuery) => JSON.stringify(query, (_, v) => (typeof v === 'bigint' ? String(v) : v));
      for (const sort of ['asc', 'desc'] as const) {
        for (let page = 1; page <= Math.ceil(count / 3) + 1; page++) {
          const query = { address: EMITTER, page, offset: 3, sort };
          expect(await storage.listAddressLogs(query), described(query)).toEqual(referenceAddressLogs(stored, query));
        }
        const ranged = { address: EMITTER, startBlock: 3n, endBlock: 8n, page: 2, offset: 2, sort };
        expect(await storage.listAddressLogs(ranged), described(ranged)).toEqual(referenceAddressLogs(stored, ranged));
      }
      // getLogs by the contract alone reads the same pages, oldest first.
      const deep = { address: EMITTER, topics: [], operators: {}, page: 3, offset: 4 };
      expect(await storage.listLogs(deep)).toEqual(referenceAddressLogs(stored, { address: EMITTER, page: 3, offset: 4, sort: 'asc' }));
      // With their transactions' time and gas (getLogs's page, read in one go), by contract and by topic.
      expect(await storage.listLogsWithGas(deep)).toEqual(withGas(stored, referenceAddressLogs(stored, { address: EMITTER, page: 3, offset: 4, sort: 'asc' })));
      const topic = { topics: [chainLogs(fork)[0]!.topics[0]], operators: {}, page: 1, offset: 5 };
      const found = await storage.listLogs(topic);
      expect(found.length).toBeGreaterThan(0);
      expect(await storage.listLogsWithGas(topic)).toEqual(withGas(stored, found));
      expect(await storage.listLogsWithGas({ ...deep, address: fixtureAddress('silent') })).toEqual([]);
      // A range of its ordinals holds the logs at those places in chain order, the kept and the
      // fork's alike (one range spans the fork), with or without their transactions' gas.
      const inOrder = referenceAddressLogs(stored, { address: EMITTER, page: 1, offset: 10_000, sort: 'asc' });
      const kept = emitted(chain.slice(0, 6));
      for (const [first, last] of [[1, 1], [1, count], [2, 5], [kept - 1, kept + 2], [count - 1, count + 3], [count + 1, count + 5], [0, 2], [5, 4]] as const) {
        const expected = inOrder.filter((_, i) => i + 1 >= first && i + 1 <= last);
        expect(await storage.listAddressLogRange(EMITTER, { first, last }), `${first}..${last}`).toEqual(expected);
        expect(await storage.listAddressLogRangeWithGas(EMITTER, { first, last }), `${first}..${last} with gas`).toEqual(withGas(stored, expected));
      }
      expect(await storage.listAddressLogRange(fixtureAddress('silent'), { first: 1, last: 10 })).toEqual([]);
    });
  });
}
