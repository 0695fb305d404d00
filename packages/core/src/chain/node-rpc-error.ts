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
