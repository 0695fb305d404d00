import type { Logger } from 'pino';
import {
  JSON_RPC_CODES,
  jsonRpcErrorOf,
  RpcInvalidParamsError,
  RpcInvalidRequestError,
  RpcMethodNotFoundError,
  RpcParseError,
  type JsonRpcErrorObject,
} from './json-rpc-errors.js';

/** A request's `id`: JSON-RPC 2.0 allows a string, a number or `null`. */
export type JsonRpcId = string | number | null;

/** One JSON-RPC 2.0 response object. */
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcErrorObject };

/**
 * What a request body gets back: one response, an array for a batch, or `undefined` when
 * nothing is to be sent (a notification, or a batch of notifications only).
 */
export type JsonRpcReply = JsonRpcResponse | JsonRpcResponse[] | undefined;

/** A method: its positional parameters in, its `result` out; throws to answer an error. */
export type JsonRpcMethod = (params: readonly unknown[]) => Promise<unknown>;

/** Options of {@link createJsonRpcDispatcher}. */
export interface JsonRpcDispatcherOptions {
  methods: ReadonlyMap<string, JsonRpcMethod>;
  /** Most requests one batch may hold; a larger batch is refused as a whole. */
  maxBatch: number;
  /** Where unexpected failures are logged (their answer is a bare `Internal error`). */
  logger: Logger;
}

/** Answers JSON-RPC 2.0 bodies, batches included. */
export interface JsonRpcDispatcher {
  /** Answers a parsed body (`undefined` for an empty one). Never rejects. */
  dispatch(body: unknown): Promise<JsonRpcReply>;
}

/** A request object that passed validation. */
interface ValidRequest {
  method: string;
  params: unknown;
  /** `undefined` for a notification (no `id` member): it runs, but gets no reply. */
  id: JsonRpcId | undefined;
}

/**
 * JSON-RPC 2.0 exactly as its specification reads: `[]` is one Invalid Request, each malformed
 * batch entry its own; notifications run without a reply; methods that are not in the table
 * answer Method not found without running anything. Entries of a batch run concurrently and
 * their answers keep the batch's order.
 */
export function createJsonRpcDispatcher(options: JsonRpcDispatcherOptions): JsonRpcDispatcher {
  const { methods, maxBatch, logger } = options;

  async function answer(entry: unknown): Promise<JsonRpcResponse | undefined> {
    let request: ValidRequest;
    try {
      request = validRequest(entry);
    } catch (error) {
      return failure(idOf(entry), error);
    }
    let response: JsonRpcResponse;
    try {
      response = { jsonrpc: '2.0', id: request.id ?? null, result: (await run(request)) ?? null };
    } catch (error) {
      response = failure(request.id ?? null, error);
    }
    return request.id === undefined ? undefined : response;
  }

  function run(request: ValidRequest): Promise<unknown> {
    const method = methods.get(request.method);
    if (!method) throw new RpcMethodNotFoundError(request.method);
    if (request.params !== undefined && !Array.isArray(request.params)) throw new RpcInvalidParamsError('params must be an array (by position)');
    return method((request.params as unknown[] | undefined) ?? []);
  }

  function failure(id: JsonRpcId, error: unknown): JsonRpcResponse {
    const known = jsonRpcErrorOf(error);
    if (known === null) logger.error({ err: error }, 'unexpected error while answering a JSON-RPC request');
    return { jsonrpc: '2.0', id, error: known ?? { code: JSON_RPC_CODES.INTERNAL_ERROR, message: 'Internal error' } };
  }

  return {
    async dispatch(body) {
      if (body === undefined) return failure(null, new RpcParseError());
      if (!Array.isArray(body)) return answer(body);
      if (body.length === 0) return failure(null, new RpcInvalidRequestError('empty batch'));
      if (body.length > maxBatch) return failure(null, new RpcInvalidRequestError(`a batch holds at most ${maxBatch} requests, this one ${body.length}`));
      const answers = await Promise.all(body.map(answer));
      const replies = answers.filter((reply): reply is JsonRpcResponse => reply !== undefined);
      // The specification: an empty array is never sent; nothing is.
      return replies.length === 0 ? undefined : replies;
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The entry's `id` where it has a valid one, else `null` (as the specification answers what it cannot read). */
function idOf(entry: unknown): JsonRpcId {
  return isObject(entry) && isId(entry.id) ? entry.id : null;
}

function validRequest(entry: unknown): ValidRequest {
  if (!isObject(entry)) throw new RpcInvalidRequestError('not a request object');
  if (entry.jsonrpc !== '2.0') throw new RpcInvalidRequestError('jsonrpc must be "2.0"');
  if (typeof entry.method !== 'string') throw new RpcInvalidRequestError('method must be a string');
  if (entry.params !== undefined && (typeof entry.params !== 'object' || entry.params === null)) throw new RpcInvalidRequestError('params must be an array or an object');
  if ('id' in entry && !isId(entry.id)) throw new RpcInvalidRequestError('id must be a string, a number or null');
  return { method: entry.method, params: entry.params, id: 'id' in entry ? (entry.id as JsonRpcId) : undefined };
}
