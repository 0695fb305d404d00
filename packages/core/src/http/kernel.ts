import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';
import { holdsScope } from '../auth/scopes.js';
import {
  EndpointNotFoundError,
  ForbiddenError,
  InternalError,
  MalformedJsonError,
  PayloadTooLargeError,
  RateLimitedError,
  toExplorerError,
  UnauthorizedError,
} from '../errors/index.js';
import { StreamedResult, type Route } from './route.js';
import type { ResponseCache } from './response-cache.js';
import { envelopeFormat, type ResponseFormat } from './response-format.js';
import { DEFAULT_BODY_DRAIN_LIMIT, readRequestBody } from './request-body.js';
import { requestIds } from './request-id.js';
import { Router, type RouteMatch } from './router.js';
import { trailingSlashRedirect } from './trailing-slash.js';
import type { HttpRequest, HttpResponse } from './types.js';
import { isFormContentType, parseUrlEncoded } from './url-encoded.js';
import { parseInput } from '../values/validation.js';

/** Options of {@link createHttpKernel}. */
export interface HttpKernelOptions {
  routes: readonly Route[];
  logger: Logger;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  /**
   * Bytes of a refused body read and discarded, so the client can read the 413, before its
   * connection is closed; default {@link DEFAULT_BODY_DRAIN_LIMIT}.
   */
  bodyDrainLimit?: number;
  /**
   * Who sent a request: `null` for anonymous; throws for credentials that do not hold. Runs for
   * every matched route, public ones included; a principal at hand comes without a promise.
   * Default: everyone is anonymous.
   */
  authenticate?: (request: HttpRequest) => Promise<Principal | null> | Principal | null;
  /**
   * Counts the request as `weight` requests (see {@link Route.weight}) against its caller's
   * allowance (the principal, or the client when anonymous or when its credentials failed) and
   * answers the headers to send; `null` when there are no limits.
   */
  rateLimit?: (request: HttpRequest, principal: Principal | null, weight: number) => RateLimitOutcome | Promise<RateLimitOutcome> | null;
  /** Serves routes marked `cache: 'head'` from kept answers; without it every request is computed. */
  responseCache?: ResponseCache;
  /** Told of every answered request (request logs, metrics); it runs on the hot path, so keep it cheap. */
  onResponse?: (outcome: RequestOutcome) => void;
}

/** One answered request, as {@link HttpKernelOptions.onResponse} hears of it. */
export interface RequestOutcome {
  request: HttpRequest;
  /** The matched route, `null` when no route matched. */
  route: Route | null;
  /** The client's `X-Request-Id` when it sent a usable one, else a generated one; sent back as `X-Request-Id`. */
  requestId: string;
  status: number;
  /** From the kernel receiving the request to its answer, in milliseconds. */
  durationMs: number;
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
  /** Largest accepted request body in bytes. */
  readonly bodyLimit: number;
  /**
   * Reads a request's body for an adapter (see {@link readRequestBody}): refused when over the
   * limit, once read and discarded up to the drain limit. `undefined` when there is none.
   */
  readBody(request: Readable, headers: HttpRequest['headers']): Promise<Buffer | undefined>;
  /** The route table it serves (for documentation and tests that walk every route). */
  readonly routes: readonly Route[];
  /** Answers one request. Never rejects: every failure becomes an envelope. */
  handle(request: HttpRequest): Promise<HttpResponse>;
  /**
   * As {@link handle}, but the answer comes at once, without a promise, when nothing had to be
   * awaited (a kept answer to an anonymous request, or to a key verified lately): an adapter writes it in the request's own
   * tick, as a bare route of its framework would.
   */
  respond(request: HttpRequest): HttpResponse | Promise<HttpResponse>;
  /**
   * The answer for an error raised outside `handle` (e.g. by the framework's parser): the envelope,
   * or the format of the route `request` was for (GraphQL answers GraphQL-shaped errors).
   */
  errorResponse(error: unknown, request?: Pick<HttpRequest, 'method' | 'url'>): HttpResponse;
}

const EMPTY = Object.freeze({});
const CLOSE = Object.freeze({ connection: 'close' });

/** Builds the kernel over a route table. */
export function createHttpKernel(options: HttpKernelOptions): HttpKernel {
  const router = new Router(options.routes);
  const { logger, bodyLimit } = options;
  const bodyLimits = { bodyLimit, drainLimit: options.bodyDrainLimit ?? DEFAULT_BODY_DRAIN_LIMIT };
  const authenticate = options.authenticate ?? (() => null);
  const rateLimit = options.rateLimit ?? (() => null);
  const { responseCache, onResponse } = options;
  const newRequestId = requestIds();

  function toResponse(error: unknown, format: ResponseFormat): HttpResponse {
    const explorerError = toExplorerError(error);
    if (explorerError instanceof InternalError) {
      logger.error({ err: explorerError.cause ?? error }, 'unexpected error while answering a request');
    }
    const response = format.error(explorerError);
    return explorerError instanceof PayloadTooLargeError && explorerError.unread ? withHeaders(response, CLOSE) : response;
  }

  /**
   * Answers without a promise when nothing is awaited (a kept answer to an anonymous request, as
   * most traffic is): each promise layer costs the request path turns of the microtask queue.
   */
  function respond(request: HttpRequest): HttpResponse | Promise<HttpResponse> {
    const started = performance.now();
    const queryStart = request.url.indexOf('?');
    const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
    const match = router.match(request.method, path);
    const exchange: Exchange = { request, match, queryStart, started, inputs: undefined, unreadable: null };
    const redirect = match ? null : trailingSlashRedirect(router, request, path, queryStart === -1 ? '' : request.url.slice(queryStart));
    if (redirect) return finish(exchange, redirect, null);
    // A route that takes its API key as a parameter, or weighs its body, reads its inputs first;
    // what cannot be read is answered only after the request has been counted, like bad credentials.
    if (match?.route.apiKeyParam !== undefined || match?.route.weight !== undefined) {
      try {
        exchange.inputs = readInputs(match.route, request, queryStart);
      } catch (error) {
        exchange.unreadable = error;
      }
    }
    let pending: Promise<Principal | null> | Principal | null;
    try {
      const keyParam = match?.route.apiKeyParam;
      pending = authenticate(exchange.inputs && keyParam !== undefined ? withKeyParam(request, exchange.inputs, keyParam) : request);
    } catch (error) {
      return count(exchange, null, error);
    }
    // Anonymous requests, and credentials verified lately, skip the promise: most traffic is one or the other.
    if (!(pending instanceof Promise)) return count(exchange, pending, null);
    return pending.then(
      (principal) => count(exchange, principal, null),
      // Counted against the client before it is answered, so guessing credentials is limited too.
      (error: unknown) => count(exchange, null, error),
    );
  }

  /** Counts the request against its caller's allowance, then answers it. */
  function count(exchange: Exchange, principal: Principal | null, refused: unknown): HttpResponse | Promise<HttpResponse> {
    let counting: RateLimitOutcome | Promise<RateLimitOutcome> | null;
    try {
      const { inputs, match } = exchange;
      const weight = inputs && match?.route.weight ? match.route.weight(inputs.body) : 1;
      counting = rateLimit(exchange.request, principal, weight);
    } catch (error) {
      return failed(exchange, error, null);
    }
    if (counting instanceof Promise) return counting.then((limits) => counted(exchange, principal, refused, limits), (error: unknown) => failed(exchange, error, null));
    return counted(exchange, principal, refused, counting);
  }

  function counted(exchange: Exchange, principal: Principal | null, refused: unknown, limits: RateLimitOutcome | null): HttpResponse | Promise<HttpResponse> {
    let response: HttpResponse | Promise<HttpResponse>;
    try {
      if (limits?.retryAfter != null) throw new RateLimitedError(limits.retryAfter);
      if (refused !== null) throw refused;
      if (exchange.unreadable !== null) throw exchange.unreadable;
      response = route(exchange.match, exchange.request, principal, exchange.queryStart, exchange.inputs);
    } catch (error) {
      return failed(exchange, error, limits);
    }
    if (response instanceof Promise) return response.then((answered) => finish(exchange, answered, limits), (error: unknown) => failed(exchange, error, limits));
    return finish(exchange, response, limits);
  }

  function failed(exchange: Exchange, error: unknown, limits: RateLimitOutcome | null): HttpResponse {
    let response = toResponse(error, exchange.match?.route.format ?? envelopeFormat);
    // Tiers and throttles alike tell the client when to come back.
    if (error instanceof RateLimitedError) response = withHeaders(response, { 'retry-after': String(error.retryAfterSeconds) });
    return finish(exchange, response, limits);
  }

  /** The answer with the limits' headers and the request id, as the caller is told of it. */
  function finish(exchange: Exchange, answer: HttpResponse, limits: RateLimitOutcome | null): HttpResponse {
    const { request, match } = exchange;
    const requestId = requestIdOf(request, newRequestId);
    // One copy of the headers and the answer built field by field: two spreads, and spreading the
    // answer, copy properties generically on every request.
    const headers: Record<string, string> = Object.assign({}, answer.headers, limits?.headers);
    headers['x-request-id'] = requestId;
    const response: HttpResponse = answer.stream === undefined ? { status: answer.status, headers, body: answer.body } : { status: answer.status, headers, body: answer.body, stream: answer.stream };
    onResponse?.({ request, route: match?.route ?? null, requestId, status: response.status, durationMs: performance.now() - exchange.started });
    return response;
  }

  /** Not `async`: a kept answer comes without a promise; what it throws is caught by `counted`. */
  function route(match: RouteMatch | null, request: HttpRequest, principal: Principal | null, queryStart: number, inputs: RawInputs | undefined): HttpResponse | Promise<HttpResponse> {
    if (!match) throw new EndpointNotFoundError();
    const { route } = match;
    if (principal === null ? route.auth !== 'none' : route.auth === 'jwt' && principal.kind !== 'jwt') throw new UnauthorizedError();
    if (principal !== null && !holdsScope(principal, route.scope ?? 'read')) throw new ForbiddenError();
    // A kept answer of an unscoped route needs none of the computation built below.
    const kept = route.cache === 'head' && !route.cacheScopes ? responseCache?.kept(request.url) : undefined;
    if (kept !== undefined) return kept;
    // Set by the computation this request starts (a request that joins another's reads none).
    let appendOnly: boolean | readonly string[] = false;
    const judge = route.appendOnlyPage && ((query: unknown, result: unknown) => (appendOnly = route.appendOnlyPage!(query as never, result, match.params)));
    if (route.cache !== 'head' || !responseCache) return run(route, match.params, request, principal, inputs ?? readInputs(route, request, queryStart), judge);
    // Read before the answer only for a scoped route or one that keeps some answers: both may depend on the query.
    const read = inputs ?? (route.cacheScopes || route.cacheable ? readInputs(route, request, queryStart) : undefined);
    if (route.cacheable && !route.cacheable(read!.query)) return run(route, match.params, request, principal, read!, judge);
    const answer = () => run(route, match.params, request, principal, read ?? readInputs(route, request, queryStart), judge);
    return responseCache.answer(request.url, answer, route.cacheScopes?.(match.params, read!.query), () => appendOnly);
  }

  /** `judge`, when given, sees the parsed query and the handler's result. */
  async function run(route: Route, pathParams: Record<string, string>, request: HttpRequest, principal: Principal | null, inputs: RawInputs, judge?: (query: unknown, result: unknown) => void): Promise<HttpResponse> {
    const params = route.params ? parseInput(route.params, pathParams, 'params') : EMPTY;
    const query = route.query ? parseInput(route.query, inputs.query, 'query') : EMPTY;
    const body = route.body ? parseInput(route.body, inputs.body, 'body') : undefined;
    const result = await route.handler({ params, query, body, request, principal });
    judge?.(query, result);
    if (result instanceof StreamedResult) return { status: 200, headers: result.headers, body: '', stream: logged(result.chunks, logger) };
    return (route.format ?? envelopeFormat).success(result);
  }

  /** The query and body as sent, before validation; the body is parsed only for routes that take one. */
  function readInputs(route: Route, request: HttpRequest, queryStart: number): RawInputs {
    const rawBody = readRawBody(request, bodyLimit);
    const query = route.query || route.apiKeyParam !== undefined ? parseUrlEncoded(queryStart === -1 ? '' : request.url.slice(queryStart + 1)) : EMPTY;
    if (!route.body) return { query, body: undefined };
    if (rawBody === undefined) return { query, body: request.body };
    return { query, body: route.formBody && isFormContentType(request.headers['content-type']) ? parseUrlEncoded(rawBody) : parseJson(rawBody) };
  }

  const formatOf = (request: Pick<HttpRequest, 'method' | 'url'>) => router.match(request.method, request.url.split('?')[0]!)?.route.format ?? envelopeFormat;
  return {
    bodyLimit,
    routes: options.routes,
    handle: async (request) => respond(request),
    respond,
    readBody: (request, headers) => readRequestBody(request, headers, bodyLimits),
    errorResponse: (error, request) => toResponse(error, request ? formatOf(request) : envelopeFormat),
  };
}

/**
 * `chunks`, logging a failure before passing it on: by then the status is sent, so the adapter
 * can only cut the connection (the client sees the body end early).
 */
async function* logged(chunks: AsyncIterable<Uint8Array>, logger: Logger): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch (error) {
    logger.error({ err: error }, 'a streamed answer failed after it began; its connection is cut');
    throw error;
  }
}

/** A client's request id is echoed only when it is short plain text, so it cannot forge log lines or headers. */
const USABLE_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

function requestIdOf(request: HttpRequest, generate: () => string): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && USABLE_REQUEST_ID.test(sent) ? sent : generate();
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
    throw new MalformedJsonError();
  }
}

/** One request on its way through the kernel. */
interface Exchange {
  request: HttpRequest;
  match: RouteMatch | null;
  /** Where the query string starts in the URL, -1 without one. */
  queryStart: number;
  /** `performance.now()` when the kernel received it. */
  started: number;
  /** Read before authentication, for routes that take their API key as a parameter or weigh their body. */
  inputs: RawInputs | undefined;
  /** Why those inputs could not be read, answered once the request is counted. */
  unreadable: unknown;
}

/** A request's query string and body as sent, before validation. */
interface RawInputs {
  query: Readonly<Record<string, string>>;
  body: unknown;
}

/**
 * `request` with the API key found in parameter `name` (body first, then query) as its
 * `X-API-Key`, unless it sends that header itself or the parameter is absent or empty.
 */
function withKeyParam(request: HttpRequest, inputs: RawInputs, name: string): HttpRequest {
  if (request.headers['x-api-key'] !== undefined) return request;
  const fromBody = typeof inputs.body === 'object' && inputs.body !== null ? (inputs.body as Record<string, unknown>)[name] : undefined;
  const key = fromBody ?? inputs.query[name];
  if ((typeof key !== 'string' && typeof key !== 'number') || key === '') return request;
  return { ...request, headers: { ...request.headers, 'x-api-key': String(key) } };
}

/** `response` with `extra` headers (the shared header objects are never changed). */
function withHeaders(response: HttpResponse, extra: Readonly<Record<string, string>>): HttpResponse {
  return { ...response, headers: { ...response.headers, ...extra } };
}
