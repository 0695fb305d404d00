import { createWalletClient, http, parseEther, publicActions, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { NodeRpcError, type ChainClient } from '@chainlens/core';

/** anvil's well-known development accounts. */
export const accounts = Array.from({ length: 10 }, (_, i) =>
  mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: i }),
);

/** Raw JSON-RPC call to a node. */
export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/**
 * Sends `count` native transfers from account `from` (automine: one block each); returns the
 * hashes once every one is mined. anvil answers `eth_sendRawTransaction` before it mines, so a
 * snapshot taken right after the last send could otherwise miss the last block.
 */
export async function sendTransfers(url: string, count: number, from = 0, to = 1): Promise<Hex[]> {
  const wallet = createWalletClient({ account: accounts[from]!, chain: foundry, transport: http(url) }).extend(publicActions);
  const hashes: Hex[] = [];
  for (let i = 0; i < count; i++) {
    hashes.push(await wallet.sendTransaction({ to: accounts[to]!.address, value: parseEther('0.001') + BigInt(i) }));
  }
  for (const hash of hashes) await wallet.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return hashes;
}

/** The node's block hash at `number`. */
export async function chainHash(url: string, number: bigint): Promise<string> {
  const block = await rpc<{ hash: string }>(url, 'eth_getBlockByNumber', [`0x${number.toString(16)}`, false]);
  return block.hash;
}

/**
 * A node without `missing` (older clients, nodes without the debug API): the real anvil behind a
 * method filter, which records each method asked for, batch entries one by one.
 */
export function without(missing: string, chain: ChainClient, calls: string[]): ChainClient {
  const request = async <T>(method: string, params?: readonly unknown[]): Promise<T> => {
    calls.push(method);
    if (method === missing) throw new NodeRpcError(-32601, `the method ${missing} does not exist`, undefined);
    return chain.request<T>(method, params);
  };
  return {
    ...chain,
    request,
    batch: (entries) =>
      Promise.all(
        entries.map(async ({ method, params }) => {
          try {
            return { result: await request(method, params) };
          } catch (error) {
            if (error instanceof NodeRpcError) return { error };
            throw error;
          }
        }),
      ),
  };
}
