import { memoryStorage } from '@chainlens/storage-memory';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { LogsQuery, Storage, StoredLog } from '../storage/index.js';
import { chainLogs, makeChain } from '@chainlens/testing';
import { LogService } from './log-service.js';

const chain = makeChain({ blocks: 40, txPerBlock: 4 });
let storage: Storage;
let logs: StoredLog[];

beforeAll(async () => {
  storage = memoryStorage();
  await storage.init();
  for (const bundle of chain) await storage.writeBlock(bundle);
  logs = chainLogs(chain);
});

const query = (changes: Partial<LogsQuery>): LogsQuery => ({ topics: [], operators: {}, page: 1, offset: 10_000, ...changes });

describe('LogService.search', () => {
  it('answers storage’s page of logs, by topics alone too, each with its block time and its transaction’s gas', async () => {
    const service = new LogService(storage);
    const counts = new Map<string, number>();
    for (const log of logs) if (log.topics[1]) counts.set(log.topics[1], (counts.get(log.topics[1]) ?? 0) + 1);
    const topic1 = [...counts].sort((a, b) => b[1] - a[1])[0]![0] as StoredLog['topics'][number];
    const found = await service.search(query({ topics: [undefined, topic1], page: 2, offset: 2 }));
    const expected = logs.filter((log) => log.topics[1] === topic1).slice(2, 4);
    expect(expected).toHaveLength(2);
    expect(found.map((log) => [log.transactionHash, log.logIndex])).toEqual(expected.map((log) => [log.transactionHash, String(log.logIndex)]));
    for (const [i, log] of found.entries()) {
      const tx = (await storage.getTransaction(expected[i]!.transactionHash))!;
      expect(log).toMatchObject({ timestamp: tx.timestamp.toString(), gasPrice: tx.effectiveGasPrice.toString(), gasUsed: tx.gasUsed.toString() });
    }
  });

  it('reads a page and its transactions’ fields in one storage read, never a lookup of its transactions', async () => {
    const service = new LogService(storage);
    const page = query({ address: logs[0]!.address, page: 1, offset: 5 });
    const joined = vi.spyOn(storage, 'listLogsWithGas');
    const lookups = vi.spyOn(storage, 'getTransactions');
    try {
      const found = await service.search(page);
      expect(found).toHaveLength(5);
      expect(joined).toHaveBeenCalledTimes(1);
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      joined.mockRestore();
      lookups.mockRestore();
    }
  });
});
