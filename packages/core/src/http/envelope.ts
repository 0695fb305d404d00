import type { ExplorerError } from '../errors/index.js';
import { JsonArrayText } from '../records/json-array-text.js';
import type { TextResponse } from './types.js';

/** The one response shape of every REST answer. */
export interface Envelope<T = unknown> {
  status: '1' | '0';
  message: string;
  result: T;
}

/** Shared by every response: adapters copy headers into their own reply, never mutate these. */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

/** The ordinary success prefix, serialized once. */
const OK_PREFIX = '{"status":"1","message":"OK","result":';

/** A success envelope as an HTTP response; a {@link JsonArrayText} result goes in as its text. */
export function successResponse(result: unknown, message = 'OK', status = 200): TextResponse {
  const body =
    message === 'OK'
      ? `${OK_PREFIX}${result instanceof JsonArrayText ? result.text : (JSON.stringify(result) ?? 'null')}}`
      : JSON.stringify({ status: '1', message, result } satisfies Envelope);
  return { status, headers: JSON_HEADERS, body };
}

/** An error envelope as an HTTP response: status '0', the error's message and result. */
export function errorResponse(error: ExplorerError): TextResponse {
  const envelope: Envelope = { status: '0', message: error.message, result: error.result };
  return { status: error.httpStatus, headers: JSON_HEADERS, body: JSON.stringify(envelope) };
}
