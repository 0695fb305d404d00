import { createTestChain, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { memoryStorage } from '@chainlens/storage-memory';
import { storeVerifiedEmitter, waitFor } from '@chainlens/testing';
import { pino } from 'pino';
import type { Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createExplorer, type Explorer } from '../explorer.js';
import { successResponse } from '../http/envelope.js';
import { asText } from '../http/response-text.js';
import type { Hex, Storage } from '../storage/index.js';

// One chain and one explorer for the file: the demo's token transfers and emitter logs, then
// more of them over new blocks, a reorg that replaces them, and a verification.
let chain: TestChain;
let demo: DemoDeployment;
let explorer: Explorer;
/** Storage reads of the two lists' pages and contexts since the last `reads.length = 0`. */
const reads: string[] = [];

beforeAll(async () => {
  chain = await createTestChain();
  demo = await deployDemo(chain);
  const storage = memoryStorage();
  // Counted, so the test can tell a page assembled from kept rows from one read from storage.
  const lists = ['listTokenTransfers', 'listTokenTransfersWithTransactions', 'listAddressLogs', 'listLogsWithGas'] as const;
  const ranges = ['listTokenTransferRange', 'listTokenTransferRangeWithTransactions', 'listAddressLogRange', 'listAddressLogRangeWithGas'] as const;
  const contexts = ['getToken', 'getMetadataProfile', 'getVerifiedContracts'] as const;
  for (const name of [...lists, ...ranges, ...contexts]) {
    const read = storage[name].bind(storage) as (...args: never[]) => Promise<unknown>;
    (storage as unknown as Record<string, unknown>)[name] = (...args: never[]) => {
      const [query, range] = args as unknown as [{ sort?: string; offset?: number }, { first: number; last: number } | undefined];
      reads.push(range !== undefined ? `${name} ${range.first}..${range.last}` : typeof query.sort === 'string' ? `${name} ${query.sort} ${query.offset}` : name);
      return read(...args);
    };
  }
  explorer = await createExplorer({ rpcUrl: chain.rpcUrl, storage: storage as Storage, logger: pino({ level: 'silent' }),
    indexer: { pollIntervalMs: 20 },
    // The test asks every page many times over.
    rateLimits: { anonymous: { perMinute: 1_000_000, perDay: 10_000_000 } },
  });
  await explorer.start();
  await indexed();
}, 120_000);

afterAll(async () => {
  await explorer?.close();
  await chain?.close();
});

/** Waits until the explorer has indexed the node's head block (its hash, so a replaced branch too). */
async function indexed(): Promise<void> {
  const head = await chain.publicClient.getBlock();
  await waitFor(async () => (await explorer.storage.getCursor())?.hash === head.hash, `block ${head.number}`, 20_000);
}

/** Sends `count` transactions calling `functionName` on `address`, one block each, and waits until they are indexed. */
async function send(address: Hex, abi: Abi, functionName: string, args: (i: number) => unknown[], count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const hash = await chain.walletClient.writeContract({ address, abi, functionName, args: args(i) });
    await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  }
  await indexed();
}

const get = async (url: string) => asText(await explorer.kernel.handle({ method: 'GET', url, headers: {}, ip: '127.0.0.1' })).body;

/**
 * Every page of the token's transfers (REST and Etherscan tokentx) and of the token's and the
 * emitter's events, in both orders, and of their Etherscan getLogs, at two page sizes (one under
 * a stored run of rows, one over it), as served (response cache and kept rows) and as read from
 * storage with nothing kept: byte for byte equal. (getLogs from block 0 and tokentx from block 0
 * are the same pages, read from storage: a block range is never assembled from kept rows.)
 */
async function expectServedAsStored(): Promise<void> {
  const token = demo.contracts.token.toLowerCase() as Hex;
  const emitter = demo.contracts.emitter.toLowerCase() as Hex;
  const transfers = (await explorer.storage.getTokenTransferTip(token))!.length;
  for (const offset of [3, 100]) {
    for (const sort of ['asc', 'desc'] as const) {
      for (let page = 1; page <= Math.ceil(transfers / offset) + 1; page++) {
        const url = `/api/v1/token/${token}/transfers?page=${page}&offset=${offset}&sort=${sort}`;
        const stored = successResponse(await explorer.services.tokens.transfers({ token, page, offset, sort })).body;
        expect(await get(url), url).toBe(stored);
        expect(await get(url), `${url} again`).toBe(stored);
        // tokentx shows confirmations, which kept rows write in from the head at each page.
        const tokentx = `/api?module=account&action=tokentx&contractaddress=${token}&page=${page}&offset=${offset}&sort=${sort}`;
        const storedTokentx = await get(`${tokentx}&startblock=0`);
        expect(await get(tokentx), tokentx).toBe(storedTokentx);
        expect(await get(tokentx), `${tokentx} again`).toBe(storedTokentx);
      }
      for (const contract of [token, emitter]) {
        const logs = (await explorer.storage.getAddressLogTip(contract))!.length;
        for (let page = 1; page <= Math.ceil(logs / offset) + 1; page++) {
          const url = `/api/v1/contract/${contract}/events?page=${page}&offset=${offset}&sort=${sort}`;
          const stored = successResponse(await explorer.services.contracts.events({ address: contract, page, offset, sort })).body;
          expect(await get(url), url).toBe(stored);
          expect(await get(url), `${url} again`).toBe(stored);
          if (sort === 'desc') continue;
          const getLogs = `/api?module=logs&action=getLogs&address=${contract}&page=${page}&offset=${offset}`;
          const storedLogs = await get(`${getLogs}&fromblock=0`);
          expect(await get(getLogs), getLogs).toBe(storedLogs);
          expect(await get(getLogs), `${getLogs} again`).toBe(storedLogs);
        }
      }
    }
  }
}

describe('list pages assembled from kept rows', () => {
  it('answer byte for byte as storage does across new blocks, a reorg and a verification, and a new block reads no page from storage', async () => {
    const token = demo.contracts.token as Hex;
    const emitter = demo.contracts.emitter as Hex;
    const transfer = (i: number) => [demo.accounts[1 + (i % 4)], BigInt(i + 1)];
    const ping = (i: number) => [`ping ${i}`];
    // Enough transfers for several pages of 3 and the last one part-full.
    await send(token, demo.abis.token, 'transfer', transfer, 7);
    await send(emitter, demo.abis.emitter, 'ping', ping, 4);
    await expectServedAsStored();
    const snapshot = await chain.publicClient.request({ method: 'evm_snapshot' as never }) as Hex;

    // New blocks: the newest pages move, their rows are kept ones and the new ones.
    await send(token, demo.abis.token, 'transfer', transfer, 4);
    await send(emitter, demo.abis.emitter, 'ping', ping, 2);
    reads.length = 0;
    // Newest-first pages of rows served before the blocks (3 and 2 places further down now):
    // followed lengths and kept rows, no storage read of either list; each list's context (the
    // token's name, the contract's verification) is read again once, as the blocks touched it.
    await get(`/api/v1/token/${token.toLowerCase()}/transfers?page=3&offset=3`);
    await get(`/api/v1/contract/${emitter.toLowerCase()}/events?page=2&offset=3`);
    const tokentx = `/api?module=account&action=tokentx&contractaddress=${token.toLowerCase()}&page=3&offset=3&sort=desc`;
    await get(tokentx);
    expect(reads.sort()).toEqual(['getMetadataProfile', 'getToken', 'getToken', 'getVerifiedContracts']);
    // Asked again past the response cache: no storage read at all.
    reads.length = 0;
    await get(`/api/v1/token/${token.toLowerCase()}/transfers?page=3&offset=3&again`);
    await get(`/api/v1/contract/${emitter.toLowerCase()}/events?page=2&offset=3&again`);
    await get(`/api?module=logs&action=getLogs&address=${emitter.toLowerCase()}&page=1&offset=3`);
    await get(tokentx);
    expect(reads).toEqual([]);
    // A page holding new rows reads those rows alone (the 4 transfers of the new blocks), once.
    const length = (await explorer.storage.getTokenTransferTip(token.toLowerCase() as Hex))!.length;
    await get(`/api/v1/token/${token.toLowerCase()}/transfers?page=1&offset=100`);
    await get(`/api/v1/token/${token.toLowerCase()}/transfers?page=1&offset=100&x`);
    expect(reads).toEqual([`listTokenTransferRange ${length - 3}..${length}`]);
    await expectServedAsStored();

    // A reorg replaces those blocks with a longer branch of other transfers and pings.
    let reorgs = 0;
    explorer.hub.on('reorg', () => reorgs++);
    await chain.publicClient.request({ method: 'evm_revert' as never, params: [snapshot] as never });
    await send(token, demo.abis.token, 'transfer', (i) => [demo.accounts[5], BigInt(100 + i)], 8);
    await send(emitter, demo.abis.emitter, 'ping', (i) => [`fork ${i}`], 2);
    expect(reorgs).toBe(1);
    await expectServedAsStored();

    // Verifying the emitter changes how its events decode: its pages show it at once.
    const before = await get(`/api/v1/contract/${emitter.toLowerCase()}/events?page=1&offset=3`);
    await storeVerifiedEmitter({ explorer }, emitter.toLowerCase() as Hex);
    const after = await get(`/api/v1/contract/${emitter.toLowerCase()}/events?page=1&offset=3`);
    expect(after).not.toBe(before);
    expect(JSON.parse(after).result[0].eventName).toBe('Ping');
    await expectServedAsStored();
  });

  it('a page that new blocks shifted reads from storage only the rows it lacks, at its bottom and at its top', async () => {
    // The quote token's transfers: a list no other test of the file pages.
    const quote = demo.contracts.quoteToken.toLowerCase() as Hex;
    const pay = (i: number) => [demo.accounts[1 + (i % 4)], BigInt(i + 1)];
    await send(quote, demo.abis.quoteToken, 'transfer', pay, 4);
    const url = (page: number) => `/api/v1/token/${quote}/transfers?page=${page}&offset=3`;
    const served = async (page: number) => {
      const stored = successResponse(await explorer.services.tokens.transfers({ token: quote, page, offset: 3, sort: 'desc' })).body;
      expect(await get(url(page)), url(page)).toBe(stored);
    };
    const length = (await explorer.storage.getTokenTransferTip(quote))!.length;
    await served(1);
    // Two new transfers: page 2 now shows the old page's two oldest rows (kept) and one below
    // them (never read), page 1 the two new ones over the old newest.
    await send(quote, demo.abis.quoteToken, 'transfer', pay, 2);
    reads.length = 0;
    await served(2);
    await served(1);
    expect(reads.filter((read) => read.startsWith('listTokenTransferRange'))).toEqual([`listTokenTransferRange ${length - 3}..${length - 3}`, `listTokenTransferRange ${length + 1}..${length + 2}`]);
  });
});

describe('list answers kept by the response cache', () => {
  it('computes a contract’s getLogs page, a token’s tokentx page and an account’s txlist once per head; a full getLogs or oldest-first events page outlives blocks of its contract, and a POST is computed every time', async () => {
    const emitter = demo.contracts.emitter.toLowerCase() as Hex;
    const token = demo.contracts.token.toLowerCase() as Hex;
    // At least two logs of the emitter: its first page of two is full.
    await send(demo.contracts.emitter, demo.abis.emitter, 'ping', (i) => [`kept ${i}`], 2);
    const logs = vi.spyOn(explorer.services.logs, 'searchText');
    const transfers = vi.spyOn(explorer.services.tokens, 'tokenTransfersText');
    const events = vi.spyOn(explorer.services.contracts, 'eventsPage');
    const accounts = vi.spyOn(explorer.services.accounts, 'transactions');
    try {
      const oldestEvents = `/api/v1/contract/${emitter}/events?page=1&offset=2&sort=asc`;
      await get(oldestEvents);
      const full = `/api?module=logs&action=getLogs&address=${emitter}&page=1&offset=2`;
      const partial = `/api?module=logs&action=getLogs&address=${emitter}&page=1&offset=1000`;
      const tokentx = `/api?module=account&action=tokentx&contractaddress=${token}&page=1&offset=5&sort=desc`;
      const txlist = `/api?module=account&action=txlist&address=${demo.accounts[0]!.toLowerCase()}&page=1&offset=5&sort=desc`;
      for (const url of [full, partial, tokentx, txlist, full, partial, tokentx, txlist]) await get(url);
      expect([logs.mock.calls.length, transfers.mock.calls.length, accounts.mock.calls.length]).toEqual([2, 1, 1]);
      // A block of the emitter: the partial page and tokentx (its confirmations) are computed again.
      await send(demo.contracts.emitter, demo.abis.emitter, 'ping', (i) => [`kept again ${i}`], 1);
      for (const url of [full, partial, tokentx, txlist, oldestEvents]) await get(url);
      expect([logs.mock.calls.length, transfers.mock.calls.length, accounts.mock.calls.length, events.mock.calls.length]).toEqual([3, 2, 2, 1]);
      // A POST's parameters may be in its body, which the URL does not name.
      for (let i = 0; i < 2; i++) await explorer.kernel.handle({ method: 'POST', url: full, headers: {}, ip: '127.0.0.1' });
      expect(logs.mock.calls.length).toBe(5);
    } finally {
      logs.mockRestore();
      transfers.mockRestore();
      events.mockRestore();
      accounts.mockRestore();
    }
  });
});
