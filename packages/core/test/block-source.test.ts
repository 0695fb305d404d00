import { createChainClient, NodeRpcError, type ChainClient } from '@chainlens/core';
import { startAnvil, type AnvilInstance } from '@chainlens/core/devchain';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockSource } from '../src/indexer/block-source.js';
import { sendTransfers } from './helpers.js';

/** A node without `missing` (older clients, nodes without the debug API): the real anvil behind a method filter. */
function without(missing: string, chain: ChainClient, calls: string[]): ChainClient {
  return {
    ...chain,
    async request<T>(method: string, params?: readonly unknown[]): Promise<T> {
      calls.push(method);
      if (method === missing) throw new NodeRpcError(-32601, `the method ${missing} does not exist`, undefined);
      return chain.request<T>(method, params);
    },
  };
}

describe('BlockSource', () => {
  let node: AnvilInstance;
  beforeAll(async () => {
    node = await startAnvil();
    await sendTransfers(node.rpcUrl, 2);
  });
  afterAll(() => node.stop());

  it('reads receipts with one eth_getBlockReceipts call per block where the node has it', async () => {
    const calls: string[] = [];
    const chain = createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 });
    const source = new BlockSource({ ...chain, request: (method, params) => (calls.push(method), chain.request(method, params)) } as ChainClient);
    const bundle = await source.bundle(1n);
    expect(bundle!.transactions).toHaveLength(1);
    expect(calls.sort()).toEqual(['debug_traceBlockByNumber', 'eth_getBlockByNumber', 'eth_getBlockReceipts']);
  });

  it('falls back to one receipt per transaction where the node lacks eth_getBlockReceipts, and remembers it', async () => {
    const calls: string[] = [];
    const reference = await new BlockSource(createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 })).bundle(2n);
    const source = new BlockSource(without('eth_getBlockReceipts', createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 }), calls));
    expect(await source.bundle(2n)).toEqual(reference);
    calls.length = 0;
    await source.bundle(1n);
    expect(calls.sort()).toEqual(['debug_traceBlockByNumber', 'eth_getBlockByNumber', 'eth_getTransactionReceipt']);
  });

  it('goes on without traces where the node lacks debug_traceBlockByNumber, says so once, and stops asking', async () => {
    const calls: string[] = [];
    const warnings: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
    const reference = await new BlockSource(createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 }), { traces: false }).bundle(2n);
    const source = new BlockSource(without('debug_traceBlockByNumber', createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 }), calls), { logger });
    expect(await source.bundle(2n)).toEqual(reference);
    calls.length = 0;
    await source.bundle(1n);
    expect(calls.sort()).toEqual(['eth_getBlockByNumber', 'eth_getBlockReceipts']);
    expect(warnings).toHaveLength(1);
  });

  it('answers null for a block the node does not have yet', async () => {
    const source = new BlockSource(createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 }));
    expect(await source.bundle(1_000_000n)).toBeNull();
  });
});
