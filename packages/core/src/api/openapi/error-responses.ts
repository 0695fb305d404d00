import { z } from 'zod';
import { ERROR_TABLE, type ErrorCode } from '../../errors/index.js';
import { envelopeFormat, errorResponse, fieldError, type Route } from '../../http/index.js';

/** Errors any route can answer: bad credentials are refused on public routes too (decisions.md). */
const ALWAYS: ErrorCode[] = ['INVALID_API_KEY', 'TOKEN_EXPIRED', 'RATE_LIMITED', 'INTERNAL'];

/**
 * The error codes `route` can answer: those it declares (`errors`: from the data or the node),
 * input errors of its schemas (the specific ones set with `withError` included), credentials,
 * scope, body size, rate limits and the internal error.
 */
export function routeErrorCodes(route: Route): ErrorCode[] {
  const codes = new Set<ErrorCode>([...ALWAYS, ...(route.errors ?? [])]);
  for (const schema of [route.params, route.query, route.body]) {
    if (!schema) continue;
    codes.add('INVALID_REQUEST');
    const shape = schema instanceof z.ZodObject ? (Object.values(schema.shape) as z.ZodType[]) : [];
    for (const field of shape) {
      const error = fieldError(field);
      if (error) codes.add(error.code);
    }
  }
  if (route.body) codes.add('PAYLOAD_TOO_LARGE');
  if (route.auth !== 'none') codes.add('UNAUTHORIZED');
  if (route.auth !== 'none' || route.scope !== undefined) codes.add('FORBIDDEN');
  return [...codes];
}

/** Whether `route` answers its errors as envelopes with decisions.md's HTTP codes (Etherscan and JSON-RPC speak their own). */
export function answersEnvelopeErrors(route: Route): boolean {
  const format = route.format ?? envelopeFormat;
  return format.error === errorResponse;
}

/** `codes` grouped by HTTP status, each status with the envelope messages it may carry. */
export function errorsByStatus(codes: readonly ErrorCode[]): Map<number, { code: ErrorCode; message: string }[]> {
  const byStatus = new Map<number, { code: ErrorCode; message: string }[]>();
  for (const code of codes) {
    const { http, message } = ERROR_TABLE[code];
    byStatus.set(http, [...(byStatus.get(http) ?? []), { code, message }]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}
