import { createChainClient, NodeRpcError, type ChainClient } from '@chainlens/core';
import { startAnvil, type AnvilInstance } from '@chainlens/core/devchain';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockSource } from '../src/indexer/block-source.js';
import { createWalletClient, http, publicActions } from 'viem';
import { foundry } from 'viem/chains';
import { accounts, sendTransfers } from './helpers.js';

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
  /** Block 3: a contract creation (code runs, so the block is traced). */
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

  it('reads receipts with one eth_getBlockReceipts call per block where the node has it', async () => {
    const calls: string[] = [];
    const chain = createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 });
    const source = new BlockSource({ ...chain, request: (method, params) => (calls.push(method), chain.request(method, params)) } as ChainClient);
    const bundle = await source.bundle(1n);
    expect(bundle!.transactions).toHaveLength(1);
    // A block of plain transfers needs no traces; one where code ran is traced.
    expect(calls.sort()).toEqual(['eth_getBlockByNumber', 'eth_getBlockReceipts']);
    calls.length = 0;
    expect((await source.bundle(CREATION_BLOCK))!.contracts).toHaveLength(1);
    expect(calls.sort()).toEqual(['debug_traceBlockByHash', 'eth_getBlockByNumber', 'eth_getBlockReceipts']);
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

  it('goes on without traces where the node lacks debug_traceBlockByHash, says so once, and stops asking', async () => {
    const calls: string[] = [];
    const warnings: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
    const reference = await new BlockSource(createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 }), { traces: false }).bundle(CREATION_BLOCK);
    const source = new BlockSource(without('debug_traceBlockByHash', createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 }), calls), { logger });
    expect(await source.bundle(CREATION_BLOCK)).toEqual(reference);
    calls.length = 0;
    await source.bundle(CREATION_BLOCK);
    expect(calls.sort()).toEqual(['eth_getBlockByNumber', 'eth_getBlockReceipts']);
    expect(warnings).toHaveLength(1);
  });

  it('answers null for a block the node does not have yet', async () => {
    const source = new BlockSource(createChainClient({ rpcUrl: node.rpcUrl, timeoutMs: 5_000 }));
    expect(await source.bundle(1_000_000n)).toBeNull();
  });
});
