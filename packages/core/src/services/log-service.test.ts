import { memoryStorage } from '@chainlens/storage-memory';
import { beforeAll, describe, expect, it } from 'vitest';
import { QueryTooLargeError } from '../errors/index.js';
import type { Hex, Storage, StoredLog } from '../storage/index.js';
import { chainLogs, makeChain } from '@chainlens/testing';
import { LogService, type LogFilter } from './log-service.js';

const chain = makeChain({ blocks: 120, txPerBlock: 6 });
let storage: Storage;
/** The contract with the most logs, and its logs in chain order. */
let address: Hex;
let logs: StoredLog[];

beforeAll(async () => {
  storage = memoryStorage();
  await storage.init();
  for (const bundle of chain) await storage.writeBlock(bundle);
  const counts = new Map<Hex, number>();
  for (const log of chainLogs(chain)) counts.set(log.address, (counts.get(log.address) ?? 0) + 1);
  address = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  logs = chainLogs(chain).filter((log) => log.address === address);
});

const filter = (changes: Partial<LogFilter>): LogFilter => ({ address, topics: [], operators: {}, page: 1, offset: 10_000, ...changes });
const ids = (found: { transactionHash: string; logIndex: string }[]) => found.map((log) => `${log.transactionHash}:${log.logIndex}`);
const expected = (keep: (log: StoredLog) => boolean) => logs.filter(keep).map((log) => `${log.transactionHash}:${log.logIndex}`);

describe('LogService.search', () => {
  it('combines each pair of given topics with its operator (and by default), every pair having to hold', async () => {
    const service = new LogService(storage);
    const withTwo = logs.find((log) => log.topics.length >= 3)!;
    const [t0, t1, t2] = withTwo.topics as [Hex, Hex, Hex];
    expect(logs.length).toBeGreaterThan(20);
    const cases: [Partial<LogFilter>, (log: StoredLog) => boolean][] = [
      [{ topics: [t0] }, (log) => log.topics[0] === t0],
      [{ topics: [undefined, t1] }, (log) => log.topics[1] === t1],
      [{ topics: [t0, t1] }, (log) => log.topics[0] === t0 && log.topics[1] === t1],
      [{ topics: [t0, t1], operators: { '0_1': 'or' } }, (log) => log.topics[0] === t0 || log.topics[1] === t1],
      // (t0 or t1) and (t0 and t2) and (t1 or t2): t0 and t2.
      [{ topics: [t0, t1, t2], operators: { '0_1': 'or', '0_2': 'and', '1_2': 'or' } }, (log) => log.topics[0] === t0 && log.topics[2] === t2],
      [{ topics: [undefined, t1, t2], operators: { '1_2': 'or' } }, (log) => log.topics[1] === t1 || log.topics[2] === t2],
    ];
    for (const [changes, keep] of cases) {
      const want = expected(keep);
      expect(want.length, JSON.stringify(changes)).toBeGreaterThan(0);
      expect(ids(await service.search(filter(changes))), JSON.stringify(changes)).toEqual(want);
    }
  });

  it('pages the matches in chain order, within the block range, with each log’s block time and transaction gas', async () => {
    const service = new LogService(storage);
    const t0 = logs[0]!.topics[0]!;
    const matching = logs.filter((log) => log.topics[0] === t0 || log.topics[1] === logs[1]!.topics[1]);
    const page = await service.search(filter({ topics: [t0, logs[1]!.topics[1]], operators: { '0_1': 'or' }, page: 2, offset: 3 }));
    expect(ids(page)).toEqual(matching.slice(3, 6).map((log) => `${log.transactionHash}:${log.logIndex}`));
    const from = logs[5]!.blockNumber;
    const to = logs[15]!.blockNumber;
    expect(ids(await service.search(filter({ fromBlock: from, toBlock: to })))).toEqual(expected((log) => log.blockNumber >= from && log.blockNumber <= to));
    const [first] = await service.search(filter({ offset: 1 }));
    const tx = (await storage.getTransaction(logs[0]!.transactionHash))!;
    expect(first).toMatchObject({ timestamp: tx.timestamp.toString(), gasPrice: tx.effectiveGasPrice.toString(), gasUsed: tx.gasUsed.toString() });
  });

  it('refuses a search that would read more logs than its limit, and serves one within it', async () => {
    const limited = new LogService(storage, { pageSize: 2, pages: 3 });
    // Asking for the whole window needs every log read: more than 3 reads of 2.
    const any = logs.findLast((log) => log.topics[1] !== undefined)!.topics[1];
    await expect(limited.search(filter({ topics: [undefined, any] }))).rejects.toBeInstanceOf(QueryTooLargeError);
    const early = logs.slice(0, 6).find((log) => log.topics[1] !== undefined)!;
    expect(ids(await limited.search(filter({ topics: [undefined, early.topics[1]], offset: 1 })))).toEqual(expected((log) => log.topics[1] === early.topics[1]).slice(0, 1));
  });
});
