import type { ExplorerError } from '../errors/index.js';
import type { HttpResponse } from './types.js';

/** The one response shape of every REST answer. */
export interface Envelope<T = unknown> {
  status: '1' | '0';
  message: string;
  result: T;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

/** A success envelope as an HTTP response. */
export function successResponse(result: unknown, message = 'OK', status = 200): HttpResponse {
  const envelope: Envelope = { status: '1', message, result };
  return { status, headers: { ...JSON_HEADERS }, body: JSON.stringify(envelope) };
}

/** An error envelope as an HTTP response: status '0', the error's message and result. */
export function errorResponse(error: ExplorerError): HttpResponse {
  const envelope: Envelope = { status: '0', message: error.message, result: error.result };
  return { status: error.httpStatus, headers: { ...JSON_HEADERS }, body: JSON.stringify(envelope) };
}
