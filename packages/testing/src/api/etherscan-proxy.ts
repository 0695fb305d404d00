import { encodeFunctionData, erc20Abi, keccak256, type Hex } from 'viem';
import { expect, it } from 'vitest';
import { indexedToHead, type ApiContext } from './context.js';
import { etherscan } from './etherscan.js';

/** What the node answers to one JSON-RPC request, as it is: `result` or `error`. */
async function nodeAnswer(context: ApiContext, method: string, params: unknown[]): Promise<{ result?: unknown; error?: unknown }> {
  const response = await fetch(context.chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const { result, error } = (await response.json()) as { result?: unknown; error?: unknown };
  return error === undefined ? { result } : { error };
}

async function proxy(context: ApiContext, action: string, params: Record<string, string> = {}) {
  return (await etherscan(context, { module: 'proxy', action, ...params })).body;
}

const hex = (value: bigint | number) => `0x${value.toString(16)}`;

/** The `proxy` module: Etherscan's 14 actions, each compared with the node's own answer to the same request. */
export function etherscanProxyTests(ctx: () => ApiContext): void {
  it('proxy’s 13 read actions answer what the node answers to the same request, as JSON-RPC bodies', async () => {
    const head = await indexedToHead(ctx());
    const { demo } = ctx();
    const transfer = await ctx().chain.publicClient.getTransaction({ hash: demo.transactions.transfer });
    const block = hex(transfer.blockNumber);
    const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [demo.accounts[1]!] });
    const cases: [action: string, params: Record<string, string>, method: string, nodeParams: unknown[]][] = [
      ['eth_blockNumber', {}, 'eth_blockNumber', []],
      ['eth_getBlockByNumber', { tag: block, boolean: 'true' }, 'eth_getBlockByNumber', [block, true]],
      ['eth_getBlockByNumber', { tag: String(transfer.blockNumber) }, 'eth_getBlockByNumber', [block, false]],
      ['eth_getUncleByBlockNumberAndIndex', { tag: block, index: '0x0' }, 'eth_getUncleByBlockNumberAndIndex', [block, '0x0']],
      ['eth_getBlockTransactionCountByNumber', { tag: block }, 'eth_getBlockTransactionCountByNumber', [block]],
      ['eth_getTransactionByHash', { txhash: transfer.hash }, 'eth_getTransactionByHash', [transfer.hash]],
      ['eth_getTransactionByBlockNumberAndIndex', { tag: block, index: hex(transfer.transactionIndex) }, 'eth_getTransactionByBlockNumberAndIndex', [block, hex(transfer.transactionIndex)]],
      ['eth_getTransactionCount', { address: demo.accounts[0]!, tag: 'latest' }, 'eth_getTransactionCount', [demo.accounts[0]!, 'latest']],
      ['eth_getTransactionCount', { address: demo.accounts[0]!, tag: hex(head / 2n) }, 'eth_getTransactionCount', [demo.accounts[0]!, hex(head / 2n)]],
      ['eth_getTransactionReceipt', { txhash: transfer.hash }, 'eth_getTransactionReceipt', [transfer.hash]],
      ['eth_call', { to: demo.contracts.token, data: balanceOf, tag: 'latest' }, 'eth_call', [{ to: demo.contracts.token, data: balanceOf }, 'latest']],
      ['eth_getCode', { address: demo.contracts.token, tag: 'latest' }, 'eth_getCode', [demo.contracts.token, 'latest']],
      ['eth_getStorageAt', { address: demo.contracts.token, position: '0x2', tag: 'latest' }, 'eth_getStorageAt', [demo.contracts.token, '0x2', 'latest']],
      ['eth_gasPrice', {}, 'eth_gasPrice', []],
      ['eth_estimateGas', { to: demo.contracts.token, data: balanceOf }, 'eth_estimateGas', [{ to: demo.contracts.token, data: balanceOf }]],
    ];
    const answered = new Set<string>();
    for (const [action, params, method, nodeParams] of cases) {
      const node = await nodeAnswer(ctx(), method, nodeParams);
      expect(node.error, action).toBeUndefined();
      expect(await proxy(ctx(), action, params), action).toEqual({ jsonrpc: '2.0', id: 1, ...node });
      answered.add(action);
    }
    expect(answered.size).toBe(13);
    expect((await proxy(ctx(), 'eth_getUncleByBlockNumberAndIndex', { tag: block, index: '0x0' })).result).toBeNull();
  });

  it('proxy/eth_sendRawTransaction broadcasts a signed transaction that the node mines, answering its hash', async () => {
    const { walletClient, publicClient } = ctx().chain;
    const request = await walletClient.prepareTransactionRequest({ to: ctx().demo.accounts[4]!, value: 12_345n, chain: walletClient.chain, account: walletClient.account! });
    const signed = await walletClient.signTransaction(request);
    const reply = await proxy(ctx(), 'eth_sendRawTransaction', { hex: signed });
    expect(reply).toEqual({ jsonrpc: '2.0', id: 1, result: keccak256(signed) });
    const receipt = await publicClient.waitForTransactionReceipt({ hash: keccak256(signed), pollingInterval: 10 });
    expect(receipt.status).toBe('success');
  });

  it('proxy errors: the node’s own for a reverting call, -32601 for an unknown action, -32602 for bad input, the request’s id echoed', async () => {
    const { demo } = ctx();
    const fail = encodeFunctionData({ abi: demo.abis.reverter, functionName: 'fail' });
    const node = await nodeAnswer(ctx(), 'eth_call', [{ to: demo.contracts.reverter, data: fail }, 'latest']);
    expect(node.error).toMatchObject({ code: 3 });
    expect(await proxy(ctx(), 'eth_call', { to: demo.contracts.reverter, data: fail, tag: 'latest', id: '7' })).toEqual({ jsonrpc: '2.0', id: 7, ...node });
    expect(await proxy(ctx(), 'eth_getBalanceOf')).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'the method eth_getBalanceOf does not exist/is not available' } });
    expect(await proxy(ctx(), 'eth_getCode', { address: '0x12', tag: 'latest' })).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.stringContaining('address') } });
    expect(await proxy(ctx(), 'eth_getBlockByNumber', { tag: 'yesterday' })).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
    const bytes = await proxy(ctx(), 'eth_sendRawTransaction', { hex: '0x02' });
    expect(bytes).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: expect.any(Number), message: expect.any(String) } });
  });
}
