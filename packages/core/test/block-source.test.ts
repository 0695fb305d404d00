import { BatchRefusedError, createChainClient, type ChainClient } from '@chainlens/core';
import { startAnvil, type AnvilInstance } from '@chainlens/devchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockSource } from '../src/indexer/block-source.js';
import { createWalletClient, http, publicActions } from 'viem';
import { foundry } from 'viem/chains';
import { startNodeRelay } from '@chainlens/testing';
import { accounts, sendTransfers, without } from './helpers.js';

describe('BlockSource', () => {
  let node: AnvilInstance;
  /** Block 3: a contract creation. */
  const CREATION_BLOCK = 3n;
  beforeAll(async () => {
    node = await startAnvil();
    await sendTransfers(node.rpcUrl, 2);
    const wallet = createWalletClient({ account: accounts[0]!, chain: foundry, transport: http(node.rpcUrl) }).extend(publicActions);
    // Init code returning a one-byte runtime (0x00).
    const hash = await wallet.sendTransaction({ data: '0x600160008160000a60005260206000f3' });
    await wallet.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  });
  afterAll(() => node.stop());

  it('reads a block and its receipts in one batch request where the node has eth_getBlockReceipts', async () => {
    const batches: string[][] = [];
    const requests: string[] = [];
    const chain = createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 });
    const source = new BlockSource({
      ...chain,
      request: (method, params) => (requests.push(method), chain.request(method, params)),
      batch: (calls) => (batches.push(calls.map((call) => call.method)), chain.batch(calls)),
    } as ChainClient);
    const bundle = await source.bundle(1n);
    expect(bundle!.transactions).toHaveLength(1);
    // Where code ran too: traces are the trace indexer's, never read here.
    expect((await source.bundle(CREATION_BLOCK))!.contracts).toHaveLength(1);
    expect(batches).toEqual([['eth_getBlockByNumber', 'eth_getBlockReceipts'], ['eth_getBlockByNumber', 'eth_getBlockReceipts']]);
    expect(requests).toEqual([]);
  });

  it('reads them in two requests where the node does not answer batches, and remembers it', async () => {
    const requests: string[] = [];
    const chain = createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 });
    let batches = 0;
    const source = new BlockSource({
      ...chain,
      request: (method, params) => (requests.push(method), chain.request(method, params)),
      batch: async () => {
        batches++;
        throw new BatchRefusedError({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batches are not supported' } });
      },
    } as ChainClient);
    expect(await source.bundle(2n)).toEqual(await new BlockSource(chain).bundle(2n));
    await source.bundle(1n);
    expect(batches).toBe(1);
    expect(requests.sort()).toEqual(['eth_getBlockByNumber', 'eth_getBlockByNumber', 'eth_getBlockReceipts', 'eth_getBlockReceipts']);
  });

  it('falls back to one receipt per transaction where the node lacks eth_getBlockReceipts, and remembers it', async () => {
    const calls: string[] = [];
    const reference = await new BlockSource(createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 })).bundle(2n);
    const source = new BlockSource(without('eth_getBlockReceipts', createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 }), calls));
    expect(await source.bundle(2n)).toEqual(reference);
    calls.length = 0;
    await source.bundle(1n);
    expect(calls.sort()).toEqual(['eth_getBlockByNumber', 'eth_getTransactionReceipt']);
  });

  it('throws a first eth_getBlockReceipts failing with an internal error, for a retry, instead of taking the node for one without it', async () => {
    const relay = await startNodeRelay(node.rpcUrl);
    try {
      relay.failing.set('eth_getBlockReceipts', 1);
      const source = new BlockSource(createChainClient({ rpcUrl: relay.url, timeoutMs: 5_000 }));
      await expect(source.bundle(2n)).rejects.toMatchObject({ code: -32603 });
      expect(await source.bundle(2n)).toEqual(await new BlockSource(createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 })).bundle(2n));
      expect(relay.methods).not.toContain('eth_getTransactionReceipt');
    } finally {
      await relay.close();
    }
  });

  it('answers null for a block the node does not have yet', async () => {
    const source = new BlockSource(createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 }));
    expect(await source.bundle(1_000_000n)).toBeNull();
  });
});
