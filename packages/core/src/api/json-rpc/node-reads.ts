import type { ChainClient } from '../../chain/chain-client.js';
import { RpcMethodNotFoundError } from './json-rpc-errors.js';

/**
 * The upstream node's standard methods ChainLens forwards (JSON-RPC at `POST /`, the Etherscan
 * API's `proxy` module): reads of chain data only. An allowlist, because nodes answer far more
 * than they should to strangers (`debug_*`, `admin_*`, `personal_*`, `anvil_*`, `evm_*`,
 * `txpool_*`), and anvil executes them: whatever is not here never reaches the node. Filters
 * (`eth_newFilter`, …) are left out too: they keep state on the node per caller, and clients
 * such as viem fall back to `eth_getLogs` polling without them. `eth_sendRawTransaction` is no
 * read: it goes through the submission service, which checks the signature first.
 */
export const NODE_READ_METHODS = [
  'eth_blockNumber',
  'eth_chainId',
  'eth_syncing',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_blobBaseFee',
  'eth_getBalance',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_getTransactionCount',
  'eth_getProof',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBlockReceipts',
  'eth_getBlockTransactionCountByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getUncleCountByBlockNumber',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionReceipt',
  'eth_getLogs',
  'eth_call',
  'eth_estimateGas',
  'eth_createAccessList',
  'net_version',
  'net_listening',
  'web3_clientVersion',
] as const;

/** A method of {@link NODE_READ_METHODS}. */
export type NodeReadMethod = (typeof NODE_READ_METHODS)[number];

const ALLOWED: ReadonlySet<string> = new Set(NODE_READ_METHODS);

/** Whether `method` is one of {@link NODE_READ_METHODS}. */
export function isNodeReadMethod(method: string): method is NodeReadMethod {
  return ALLOWED.has(method);
}

/**
 * Forwards one allowlisted read to the node, as it is. Checked again here, so that no caller can
 * pass a method name from a request through: anything else throws a method-not-found error
 * without a call.
 */
export function forwardRead(chain: ChainClient, method: NodeReadMethod, params: readonly unknown[]): Promise<unknown> {
  if (!isNodeReadMethod(method)) return Promise.reject(new RpcMethodNotFoundError(method));
  return chain.request(method, params);
}
