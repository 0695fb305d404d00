import { defineChain, type Chain } from 'viem';
import { foundry } from 'viem/chains';
import { rpcCall } from './rpc.js';

/**
 * A viem chain definition for the node at `rpcUrl`, with the chain id the node reports (anvil
 * may run with `--chain-id`), so viem's chain-id checks and signatures match.
 */
export async function devChain(rpcUrl: string): Promise<Chain> {
  const id = Number(await rpcCall<string>(rpcUrl, 'eth_chainId'));
  return defineChain({ ...foundry, id, rpcUrls: { default: { http: [rpcUrl] } } });
}
