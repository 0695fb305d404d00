import { createPublicClient, http, type PublicClient } from 'viem';
import { classifyNodeError } from './node-rpc-error.js';
import { postBatch, type RpcCall, type RpcOutcome } from './rpc-batch.js';

/** Options of {@link createChainClient}. */
export interface ChainClientOptions {
  rpcUrl: string;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  /**
   * Send the requests made in one tick as one JSON-RPC batch (at most this many per batch):
   * for many small reads at once, such as a round of token metadata.
   */
  batchSize?: number;
}

/**
 * Raw JSON-RPC access to the upstream node. Errors are classified once here: `NodeRpcError`
 * for an error answer, `UpstreamUnavailableError` when the node cannot be reached.
 */
export interface ChainClient {
  readonly rpcUrl: string;
  /** The viem client, for helpers that take one (ABI calls, encoders). */
  readonly viem: PublicClient;
  request<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>;
  /**
   * Several calls as one JSON-RPC batch in one HTTP request, without the viem client's
   * per-call work: each call's result or `NodeRpcError`, in order. A node that does not answer
   * batches rejects it with `BatchRefusedError`; an unreachable one with `UpstreamUnavailableError`.
   */
  batch(calls: readonly RpcCall[]): Promise<RpcOutcome[]>;
  /** The node's chain id, asked once and remembered (a chain never changes its id). */
  chainId(): Promise<number>;
}

/** Creates the upstream node client. Retries are the caller's business (the indexer backs off). */
export function createChainClient(options: ChainClientOptions): ChainClient {
  const viemClient = createPublicClient({
    transport: http(options.rpcUrl, {
      timeout: options.timeoutMs,
      retryCount: 0,
      ...(options.batchSize !== undefined && { batch: { batchSize: options.batchSize, wait: 0 } }),
    }),
  });
  const send = viemClient.request as unknown as (args: { method: string; params?: readonly unknown[] }) => Promise<unknown>;
  let chainId: number | undefined;
  const request = async <T>(method: string, params: readonly unknown[] = []): Promise<T> => {
    try {
      return (await send({ method, params })) as T;
    } catch (error) {
      throw classifyNodeError(error);
    }
  };
  return {
    rpcUrl: options.rpcUrl,
    viem: viemClient,
    request,
    batch: (calls) => postBatch(options.rpcUrl, calls, options.timeoutMs),
    async chainId() {
      chainId ??= Number(BigInt(await request<string>('eth_chainId')));
      return chainId;
    },
  };
}
