import { describe, expect } from 'vitest';
import { TOPIC_PAIRS, type LogsQuery, type TopicOperator } from '@chainlens/core';
import type { BlockBundle, Hex, StoredLog } from '@chainlens/core';
import { fixtureHash, makeAddressPool, makeChain } from '../fixtures.js';
import { chainLogs } from '../reference.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

/**
 * What `Storage.listLogs` must answer, from the written logs: with one topic given a log
 * has it, with more every pair of given topics holds as its operator says.
 */
function referenceLogs(chain: readonly BlockBundle[], query: LogsQuery): StoredLog[] {
  const given = [0, 1, 2, 3].filter((position) => query.topics[position] !== undefined);
  if (query.address === undefined && given.length === 0) return [];
  const has = (log: StoredLog, position: number) => log.topics[position] === query.topics[position];
  const matching = chainLogs(chain).filter((log) => {
    if (query.address !== undefined && log.address !== query.address) return false;
    if (query.startBlock !== undefined && log.blockNumber < query.startBlock) return false;
    if (query.endBlock !== undefined && log.blockNumber > query.endBlock) return false;
    if (given.length === 1) return has(log, given[0]!);
    for (const a of given) {
      for (const b of given) {
        if (b <= a) continue;
        const operator = query.operators[`${a}_${b}` as keyof LogsQuery['operators']] ?? 'and';
        if (operator === 'and' ? !(has(log, a) && has(log, b)) : !(has(log, a) || has(log, b))) return false;
      }
    }
    return true;
  });
  const start = (query.page - 1) * query.offset;
  return matching.slice(start, start + query.offset);
}

/** A chain of few addresses, so topics holding addresses (senders, recipients) repeat across logs and blocks. */
function topicChain(): BlockBundle[] {
  return makeChain({ blocks: 14, txPerBlock: 4, addresses: makeAddressPool(4) });
}

/** The queries a chain's logs make interesting: each position alone, every pair with each operator, three and four topics, with and without the contract. */
function topicQueries(chain: readonly BlockBundle[]): LogsQuery[] {
  const logs = chainLogs(chain);
  const full = logs.find((log) => log.topics.length === 4)!;
  const other = logs.filter((log) => log.topics.length === 4).at(-1)!;
  const base = { page: 1, offset: 10_000, operators: {} } as const;
  const queries: LogsQuery[] = [];
  for (let position = 0; position < 4; position++) {
    const topics: (Hex | undefined)[] = [];
    topics[position] = full.topics[position];
    queries.push({ ...base, topics }, { ...base, topics, address: full.address });
  }
  for (const [pair, a, b] of TOPIC_PAIRS) {
    for (const operator of ['and', 'or'] as TopicOperator[]) {
      const topics: (Hex | undefined)[] = [];
      topics[a] = full.topics[a];
      // With `or`, the second topic comes from another log, so matches of either alone count.
      topics[b] = (operator === 'or' ? other : full).topics[b];
      queries.push({ ...base, topics, operators: { [pair]: operator } }, { ...base, topics, operators: { [pair]: operator }, address: full.address });
    }
  }
  queries.push(
    { ...base, topics: [full.topics[0], full.topics[1], other.topics[2]], operators: { '0_1': 'and', '0_2': 'or', '1_2': 'or' } },
    { ...base, topics: [full.topics[0], other.topics[1], other.topics[2]], operators: { '0_1': 'or', '0_2': 'or', '1_2': 'and' } },
    { ...base, topics: [...full.topics] },
    { ...base, topics: [undefined, undefined, fixtureHash('no such topic')] },
  );
  return queries;
}

const described = (query: LogsQuery) => JSON.stringify(query, (_, value) => (typeof value === 'bigint' ? String(value) : value));

/** `listLogs`: logs by topics alone or with their contract, Etherscan's operators, paging, block ranges, and rollbacks. */
export function logTopicTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('logs by topics', () => {
    test('finds logs by each topic alone, by every pair with and or or, and with the contract, in chain order', async (storage) => {
      const chain = topicChain();
      await writeChain(storage, chain);
      let found = 0;
      for (const query of topicQueries(chain)) {
        const expected = referenceLogs(chain, query);
        found += expected.length;
        expect(await storage.listLogs(query), described(query)).toEqual(expected);
      }
      // The fixtures give the cases something to find: more than the one log each query is built from.
      expect(found).toBeGreaterThan(topicQueries(chain).length * 2);
    });

    test('pages topic searches and bounds them by block range', async (storage) => {
      const chain = topicChain();
      await writeChain(storage, chain);
      const topic0 = chainLogs(chain)[0]!.topics[0]!;
      const all = referenceLogs(chain, { topics: [topic0], operators: {}, page: 1, offset: 10_000 });
      expect(all.length).toBeGreaterThan(10);
      const middle = all[Math.floor(all.length / 2)]!.blockNumber;
      const queries: LogsQuery[] = [];
      for (const operators of [{}, { '0_1': 'or' } as const]) {
        const topics = Object.keys(operators).length === 0 ? [topic0] : [topic0, all[1]!.topics[1]];
        queries.push(
          { topics, operators, page: 1, offset: 3 },
          { topics, operators, page: 2, offset: 3 },
          { topics, operators, page: 500, offset: 3 },
          { topics, operators, page: 1, offset: 100, startBlock: middle },
          { topics, operators, page: 1, offset: 100, endBlock: middle },
          { topics, operators, page: 2, offset: 2, startBlock: middle, endBlock: middle + 2n },
          { topics, operators, page: 1, offset: 100, startBlock: middle + 1n, endBlock: middle },
        );
      }
      for (const query of queries) expect(await storage.listLogs(query), described(query)).toEqual(referenceLogs(chain, query));
    });

    test('a contract’s logs alone, paged and bounded by block range, in chain order', async (storage) => {
      const chain = topicChain();
      await writeChain(storage, chain);
      const address = chainLogs(chain)[0]!.address;
      const all = referenceLogs(chain, { address, topics: [], operators: {}, page: 1, offset: 10_000 });
      expect(all.length).toBeGreaterThan(6);
      const middle = all[Math.floor(all.length / 2)]!.blockNumber;
      const base = { address, topics: [], operators: {} };
      const queries: LogsQuery[] = [
        { ...base, page: 1, offset: 3 },
        { ...base, page: 2, offset: 3 },
        { ...base, page: 500, offset: 3 },
        { ...base, page: 2, offset: 2, startBlock: middle },
        { ...base, page: 1, offset: 100, endBlock: middle },
        { ...base, page: 1, offset: 100, startBlock: middle + 1n, endBlock: middle },
      ];
      for (const query of queries) expect(await storage.listLogs(query), described(query)).toEqual(referenceLogs(chain, query));
    });

    test('a search naming neither a contract nor a topic finds nothing', async (storage) => {
      await writeChain(storage, topicChain());
      expect(await storage.listLogs({ topics: [], operators: {}, page: 1, offset: 100 })).toEqual([]);
    });

    test('rollbackTo takes the logs of removed blocks out of topic searches, and a fork’s logs come in', async (storage) => {
      const chain = topicChain();
      await writeChain(storage, chain);
      const last = chain[5]!.block.number;
      const before = await Promise.all(topicQueries(chain).map((query) => storage.listLogs(query)));
      expect(before.flat().filter((log) => log.blockNumber > last).length).toBeGreaterThan(0);
      await storage.rollbackTo(last);
      const kept = chain.slice(0, 6);
      for (const query of topicQueries(chain)) expect(await storage.listLogs(query), described(query)).toEqual(referenceLogs(kept, query));
      const fork = makeChain({ blocks: 4, txPerBlock: 4, addresses: makeAddressPool(4), parent: chain[5]!.block, seed: 'fork' });
      await writeChain(storage, fork);
      for (const query of [...topicQueries(chain), ...topicQueries(fork)]) expect(await storage.listLogs(query), described(query)).toEqual(referenceLogs([...kept, ...fork], query));
    });
  });
}
