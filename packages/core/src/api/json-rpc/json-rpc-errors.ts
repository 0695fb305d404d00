import { NodeRpcError } from '../../chain/node-rpc-error.js';
import { describeUpstreamFailure } from '../../chain/upstream-failure.js';
import { ExecutionFailedError, ExplorerError, UpstreamUnavailableError } from '../../errors/index.js';

/**
 * JSON-RPC error codes ChainLens answers: JSON-RPC 2.0's own, and EIP-1474's server codes where
 * JSON-RPC 2.0 leaves the choice to the server.
 */
export const JSON_RPC_CODES = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Refused credentials or scope (a generic server error: no standard code exists). */
  SERVER_ERROR: -32000,
  /** EIP-1474 "resource not found": a block or transaction ChainLens has not indexed. */
  RESOURCE_NOT_FOUND: -32001,
  /** EIP-1474 "limit exceeded": the caller's rate limit. */
  LIMIT_EXCEEDED: -32005,
  /** A reverted call or transaction, as geth answers it. */
  EXECUTION_REVERTED: 3,
} as const;

/** The `error` member of a JSON-RPC response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC error of the protocol itself (not of the chain): its code and message go out as they are. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A body that is not JSON. */
export class RpcParseError extends JsonRpcError {
  constructor() {
    super(JSON_RPC_CODES.PARSE_ERROR, 'Parse error');
  }
}

/** Not a JSON-RPC 2.0 request object, an empty batch, or a batch over the limit. */
export class RpcInvalidRequestError extends JsonRpcError {
  constructor(reason: string) {
    super(JSON_RPC_CODES.INVALID_REQUEST, `Invalid Request: ${reason}`);
  }
}

/** A method ChainLens does not serve or forward (every method off the allowlist). */
export class RpcMethodNotFoundError extends JsonRpcError {
  constructor(method: string) {
    super(JSON_RPC_CODES.METHOD_NOT_FOUND, `Method not found: ${method}`);
  }
}

/** Parameters a method of ChainLens's own cannot take. */
export class RpcInvalidParamsError extends JsonRpcError {
  constructor(reason: string) {
    super(JSON_RPC_CODES.INVALID_PARAMS, `Invalid params: ${reason}`);
  }
}

/**
 * A failure as a JSON-RPC error object: the protocol's own and the node's as they are, ChainLens's
 * with the nearest code and the REST message (an unreachable node says why). `null` for anything
 * unexpected, which the caller logs and masks.
 */
export function jsonRpcErrorOf(error: unknown): JsonRpcErrorObject | null {
  if (error instanceof JsonRpcError) return { code: error.code, message: error.message };
  if (error instanceof NodeRpcError) return { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) };
  if (error instanceof ExecutionFailedError) {
    return { code: JSON_RPC_CODES.EXECUTION_REVERTED, message: `execution reverted: ${(error.result as { revertReason: string }).revertReason}` };
  }
  if (error instanceof UpstreamUnavailableError) return { code: JSON_RPC_CODES.INTERNAL_ERROR, message: `${error.message}: ${describeUpstreamFailure(error.cause)}` };
  if (!(error instanceof ExplorerError)) return null;
  if (error.httpStatus === 400) return { code: JSON_RPC_CODES.INVALID_PARAMS, message: error.message };
  if (error.httpStatus === 404) return { code: JSON_RPC_CODES.RESOURCE_NOT_FOUND, message: error.message };
  return { code: JSON_RPC_CODES.INTERNAL_ERROR, message: error.message };
}
