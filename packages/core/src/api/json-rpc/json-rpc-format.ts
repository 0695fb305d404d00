import { MalformedJsonError, type ExplorerError } from '../../errors/index.js';
import type { TextResponse, ResponseFormat } from '../../http/index.js';
import type { JsonRpcReply, JsonRpcResponse } from './dispatcher.js';
import { JSON_RPC_CODES, jsonRpcErrorOf } from './json-rpc-errors.js';

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The JSON-RPC code of an error raised before any method runs (body, credentials, rate limit),
 * and the HTTP status it goes out with: 200 for a parse error (as geth answers), the REST status
 * for refused credentials, scope, rate limit and body size, so HTTP clients back off and retry
 * as they do against any provider.
 */
function codeOf(error: ExplorerError): { http: number; code: number } {
  if (error instanceof MalformedJsonError) return { http: 200, code: JSON_RPC_CODES.PARSE_ERROR };
  if (error.code === 'RATE_LIMITED') return { http: 429, code: JSON_RPC_CODES.LIMIT_EXCEEDED };
  if (error.httpStatus === 401 || error.httpStatus === 403) return { http: error.httpStatus, code: JSON_RPC_CODES.SERVER_ERROR };
  if (error.httpStatus === 413) return { http: 413, code: JSON_RPC_CODES.INVALID_REQUEST };
  return { http: error.httpStatus, code: jsonRpcErrorOf(error)?.code ?? JSON_RPC_CODES.INTERNAL_ERROR };
}

/**
 * How `POST {base_url}/` answers: a reply as HTTP 200 JSON, nothing to send as HTTP 204 with an
 * empty body (JSON-RPC 2.0: notifications get "nothing at all"), and errors raised before the
 * dispatcher as one JSON-RPC error object with `id: null`.
 */
export const jsonRpcFormat: ResponseFormat = {
  success: (reply): TextResponse =>
    reply === undefined ? { status: 204, headers: NO_HEADERS, body: '' } : { status: 200, headers: JSON_HEADERS, body: JSON.stringify(reply as JsonRpcReply) },
  error: (error) => {
    const { http, code } = codeOf(error);
    const message = error instanceof MalformedJsonError ? 'Parse error' : error.message;
    const body: JsonRpcResponse = { jsonrpc: '2.0', id: null, error: { code, message } };
    return { status: http, headers: JSON_HEADERS, body: JSON.stringify(body) };
  },
};
