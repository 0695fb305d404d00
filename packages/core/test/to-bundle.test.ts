import { startAnvil, type AnvilInstance } from '@chainlens/devchain';
import { createWalletClient, http, publicActions } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcBlock, RpcLog, RpcReceipt } from '../src/chain/rpc-types.js';
import { toBundle } from '../src/indexer/to-bundle.js';
import { accounts, rpc } from './helpers.js';

describe('toBundle', () => {
  let node: AnvilInstance;
  let block: RpcBlock;
  let receipts: RpcReceipt[];
  let hash: `0x${string}`;

  beforeAll(async () => {
    node = await startAnvil();
    const wallet = createWalletClient({ account: accounts[0]!, chain: foundry, transport: http(node.rpcUrl) }).extend(publicActions);
    // Init code that emits one LOG0 (no topics, no data) and deploys nothing.
    hash = await wallet.sendTransaction({ data: '0x60006000a000' });
    const { blockNumber } = await wallet.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    const number = `0x${blockNumber.toString(16)}`;
    [block, receipts] = await Promise.all([rpc<RpcBlock>(node.rpcUrl, 'eth_getBlockByNumber', [number, true]), rpc<RpcReceipt[]>(node.rpcUrl, 'eth_getBlockReceipts', [number])]);
  });
  afterAll(() => node.stop());

  it('shapes a block with its receipts, each log naming its block and transaction', () => {
    const bundle = toBundle(block, receipts);
    expect(bundle.transactions.map((tx) => tx.hash)).toEqual([hash]);
    expect(bundle.logs).toMatchObject([{ transactionHash: hash, blockHash: block.hash, blockNumber: BigInt(block.number), logIndex: 0, topics: [] }]);
  });

  it('refuses a receipt of another block, or a log that names another transaction or block, rather than store a mixed record', () => {
    const [receipt] = receipts as [RpcReceipt];
    const [log] = receipt.logs as [RpcLog];
    const other = `0x${'ab'.repeat(32)}`;
    expect(() => toBundle(block, [{ ...receipt, blockHash: other }])).toThrow(/no receipt of this block/);
    expect(() => toBundle(block, [{ ...receipt, logs: [{ ...log, transactionHash: other }] }])).toThrow(/names block .* and transaction 0xabab/);
    expect(() => toBundle(block, [{ ...receipt, logs: [{ ...log, blockNumber: '0x99' }] }])).toThrow(/names block 0x99/);
    expect(() => toBundle(block, [])).toThrow(/1 transactions but 0 receipts/);
  });
});
