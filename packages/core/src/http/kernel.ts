import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';
import { scopesOf } from '../auth/scopes.js';
import {
  EndpointNotFoundError,
  ForbiddenError,
  InternalError,
  InvalidRequestError,
  PayloadTooLargeError,
  RateLimitedError,
  toExplorerError,
  UnauthorizedError,
} from '../errors/index.js';
import { errorResponse, successResponse } from './envelope.js';
import { RouteResult, type Route } from './route.js';
import type { ResponseCache } from './response-cache.js';
import { Router } from './router.js';
import type { HttpRequest, HttpResponse } from './types.js';
import { parseInput } from './validation.js';

/** Options of {@link createHttpKernel}. */
export interface HttpKernelOptions {
  routes: readonly Route[];
  logger: Logger;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  /**
   * Who sent a request: `null` for anonymous; throws for credentials that do not hold. Runs for
   * every matched route, public ones included. Default: everyone is anonymous.
   */
  authenticate?: (request: HttpRequest) => Promise<Principal | null> | null;
  /**
   * Counts the request against its caller's allowance (the principal, or the client when
   * anonymous or when its credentials failed) and answers the headers to send; `null` when
   * there are no limits.
   */
  rateLimit?: (request: HttpRequest, principal: Principal | null) => Promise<RateLimitOutcome> | null;
  /** Serves routes marked `cache: 'head'` from kept answers; without it every request is computed. */
  responseCache?: ResponseCache;
}

/** What the rate limiter decided about one request. */
export interface RateLimitOutcome {
  /** `X-RateLimit-*` and the like, sent on every answer. */
  headers: Readonly<Record<string, string>>;
  /** Seconds to wait when over the limit (the answer is then 429), else `null`. */
  retryAfter: number | null;
}

/** The framework-neutral HTTP entry point every adapter calls. */
export interface HttpKernel {
  /** Largest accepted request body in bytes, for adapters that read bodies themselves. */
  readonly bodyLimit: number;
  /** The route table it serves (for documentation and tests that walk every route). */
  readonly routes: readonly Route[];
  /** Answers one request. Never rejects: every failure becomes an envelope. */
  handle(request: HttpRequest): Promise<HttpResponse>;
  /** The envelope answer for an error raised outside `handle` (e.g. by the framework's parser). */
  errorResponse(error: unknown): HttpResponse;
}

const EMPTY = Object.freeze({});

/** Builds the kernel over a route table. */
export function createHttpKernel(options: HttpKernelOptions): HttpKernel {
  const router = new Router(options.routes);
  const { logger, bodyLimit } = options;
  const authenticate = options.authenticate ?? (() => null);
  const rateLimit = options.rateLimit ?? (() => null);
  const { responseCache } = options;

  function toResponse(error: unknown): HttpResponse {
    const explorerError = toExplorerError(error);
    if (explorerError instanceof InternalError) {
      logger.error({ err: explorerError.cause ?? error }, 'unexpected error while answering a request');
    }
    return errorResponse(explorerError);
  }

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    let limits: RateLimitOutcome | null = null;
    let response: HttpResponse;
    try {
      // Anonymous requests skip the await: most traffic carries no credentials.
      let principal: Principal | null = null;
      let refused: unknown = null;
      try {
        const pending = authenticate(request);
        principal = pending === null ? null : await pending;
      } catch (error) {
        // Counted against the client before it is answered, so guessing credentials is limited too.
        refused = error;
      }
      const counting = rateLimit(request, principal);
      limits = counting === null ? null : await counting;
      if (limits?.retryAfter != null) throw new RateLimitedError(limits.retryAfter);
      if (refused !== null) throw refused;
      response = await route(request, principal);
    } catch (error) {
      response = toResponse(error);
      // Tiers and throttles alike tell the client when to come back.
      if (error instanceof RateLimitedError) response = withHeaders(response, { 'retry-after': String(error.retryAfterSeconds) });
    }
    return limits === null ? response : withHeaders(response, limits.headers);
  }

  async function route(request: HttpRequest, principal: Principal | null): Promise<HttpResponse> {
    const queryStart = request.url.indexOf('?');
    const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
    const match = router.match(request.method, path);
    if (!match) throw new EndpointNotFoundError();
    const { route } = match;
    if (principal === null ? route.auth !== 'none' : route.auth === 'jwt' && principal.kind !== 'jwt') throw new UnauthorizedError();
    if (principal !== null && !scopesOf(principal).has(route.scope ?? 'read')) throw new ForbiddenError();
    if (route.cache === 'head' && responseCache) return responseCache.answer(request.url, () => run(route, match.params, request, principal, queryStart));
    return run(route, match.params, request, principal, queryStart);
  }

  async function run(route: Route, pathParams: Record<string, string>, request: HttpRequest, principal: Principal | null, queryStart: number): Promise<HttpResponse> {
    const rawBody = readRawBody(request, bodyLimit);
    const params = route.params ? parseInput(route.params, pathParams, 'params') : EMPTY;
    const query = route.query
      ? parseInput(route.query, parseQuery(queryStart === -1 ? '' : request.url.slice(queryStart + 1)), 'query')
      : EMPTY;
    const body = route.body ? parseInput(route.body, rawBody === undefined ? request.body : parseJson(rawBody), 'body') : undefined;
    const result = await route.handler({ params, query, body, request, principal });
    return result instanceof RouteResult ? successResponse(result.result, result.message, result.status) : successResponse(result);
  }

  return { bodyLimit, routes: options.routes, handle, errorResponse: toResponse };
}

function readRawBody(request: HttpRequest, limit: number): string | undefined {
  const raw = request.rawBody;
  if (raw === undefined) return undefined;
  const size = typeof raw === 'string' ? Buffer.byteLength(raw) : raw.byteLength;
  if (size > limit) throw new PayloadTooLargeError();
  if (size === 0) return undefined;
  return typeof raw === 'string' ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidRequestError('body', 'malformed JSON');
  }
}

/** Query string to an object; a repeated key keeps its first value. */
function parseQuery(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  if (search === '') return query;
  for (const [key, value] of new URLSearchParams(search)) {
    if (!(key in query)) query[key] = value;
  }
  return query;
}

/** `response` with `extra` headers (the shared header objects are never changed). */
function withHeaders(response: HttpResponse, extra: Readonly<Record<string, string>>): HttpResponse {
  return { ...response, headers: { ...response.headers, ...extra } };
}
