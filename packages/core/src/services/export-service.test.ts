import { memoryStorage } from '@chainlens/storage-memory';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../storage/index.js';
import { chainTransactions, makeChain } from '@chainlens/testing';
import { ExportService } from './export-service.js';
import { LabelService } from '../features/labels/label-service.js';
import { LabelsVersion } from '../features/labels/labels-version.js';
import type { TokenService } from './token-service.js';

const chain = makeChain({ blocks: 30, txPerBlock: 6, addresses: 3 });
const address = chainTransactions(chain)[0]!.from;
const mine = chainTransactions(chain).filter((tx) => tx.from === address || tx.to === address || tx.contractAddress === address);

async function exporter(options: { maxRows: number; pageRows: number }): Promise<{ exports: ExportService; pages: number[] }> {
  const storage: Storage = memoryStorage();
  for (const bundle of chain) await storage.writeBlock(bundle);
  const pages: number[] = [];
  const read = storage.listAddressTransactionsAfter.bind(storage);
  storage.listAddressTransactionsAfter = async (query) => {
    const page = await read(query);
    pages.push(page.length);
    return page;
  };
  const labels = new LabelService(storage, new LabelsVersion(storage, 60_000), { maxPrivatePerUser: 1, cacheEntries: 0, now: Date.now });
  return { exports: new ExportService(storage, labels, {} as TokenService, options), pages };
}

async function text(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  let all = '';
  for await (const chunk of chunks) all += new TextDecoder().decode(chunk);
  return all;
}

describe('ExportService', () => {
  it('writes every row in chain order, reading keyset pages of pageRows', async () => {
    const { exports, pages } = await exporter({ maxRows: 1_000, pageRows: 7 });
    const rows = (await text(await exports.export('transactions', { address }))).split('\r\n').slice(1, -1);
    expect(rows.map((row) => row.split(',')[0])).toEqual(mine.map((tx) => tx.hash));
    expect(pages.slice(0, -1).every((size) => size === 7)).toBe(true);
    expect(pages.reduce((sum, size) => sum + size, 0)).toBe(mine.length);
  });

  it('stops at maxRows, reading no more than it writes', async () => {
    const { exports, pages } = await exporter({ maxRows: 10, pageRows: 4 });
    const rows = (await text(await exports.export('transactions', { address, startBlock: 2n }))).split('\r\n').slice(1, -1);
    expect(rows.map((row) => row.split(',')[0])).toEqual(mine.filter((tx) => tx.blockNumber >= 2n).slice(0, 10).map((tx) => tx.hash));
    expect(pages).toEqual([4, 4, 2]);
  });

  it('reads its first page before answering, and no further one once the reader stops', async () => {
    const { exports, pages } = await exporter({ maxRows: 1_000, pageRows: 3 });
    const chunks = await exports.export('transactions', { address });
    expect(pages).toEqual([3]);
    for await (const chunk of chunks) {
      expect(new TextDecoder().decode(chunk)).toMatch(/^Transaction Hash,/);
      break;
    }
    expect(pages).toEqual([3]);
  });
});
