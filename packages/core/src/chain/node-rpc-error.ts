import { BaseError, HttpRequestError, RpcRequestError, TimeoutError, WebSocketRequestError, SocketClosedError } from 'viem';
import { UpstreamUnavailableError } from '../errors/index.js';

/** A JSON-RPC error the upstream node answered (the node is up; it refused the call). */
export class NodeRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
    this.name = 'NodeRpcError';
  }
}

/**
 * The codes by which a node says it has no such method or has it turned off: JSON-RPC's -32601
 * "method not found" (geth, Erigon, Nethermind, Reth, anvil), EIP-1474's -32004 "method not
 * supported" and Besu's -32604 "method not enabled".
 */
const METHOD_UNAVAILABLE_CODES: ReadonlySet<number> = new Set([-32601, -32004, -32604]);

/**
 * Whether `error` is the node's definite answer that it has no such method (or has it off),
 * which holds for as long as the node runs; any other error answer (-32603 internal error, a
 * timeout the node reports, missing state) may not hold on the next call.
 */
export function isMethodUnavailable(error: unknown): error is NodeRpcError {
  return error instanceof NodeRpcError && METHOD_UNAVAILABLE_CODES.has(error.code);
}

/**
 * Classifies an error from viem: a JSON-RPC error answer becomes {@link NodeRpcError}; a
 * network failure, timeout or HTTP error status becomes {@link UpstreamUnavailableError}.
 */
export function classifyNodeError(error: unknown): Error {
  if (!(error instanceof BaseError)) return error instanceof Error ? error : new Error(String(error));
  const rpc = error.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  if (rpc && rpc.status === undefined) {
    const details = typeof rpc.details === 'string' && rpc.details !== '' ? rpc.details : rpc.shortMessage;
    return new NodeRpcError(rpc.code, details, rpc.data);
  }
  const down = error.walk(
    (e) =>
      e instanceof HttpRequestError ||
      e instanceof TimeoutError ||
      e instanceof WebSocketRequestError ||
      e instanceof SocketClosedError ||
      e instanceof RpcRequestError,
  );
  if (down) return new UpstreamUnavailableError(error);
  return error;
}
