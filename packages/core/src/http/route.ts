import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { JsonArrayText } from '../records/json-array-text.js';
import type { Scope } from '../auth/scopes.js';
import type { ErrorCode } from '../errors/index.js';
import type { ResponseFormat } from './response-format.js';
import type { HttpRequest } from './types.js';

/**
 * Who may call a route: anyone (`none`), a user with a JWT (`jwt`: managing keys and tokens), or
 * a user with a JWT or an API key (`user`).
 */
export type RouteAuth = 'none' | 'jwt' | 'user';

type AnyObject = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** What a handler receives: validated inputs and the raw request. */
export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  request: HttpRequest;
  /** The authenticated caller, `null` for anonymous; never `null` on a route that requires one. */
  principal: Principal | null;
}

/** A handler's answer when it needs more than a plain `result` (a custom message or status). */
export class RouteResult<T = unknown> {
  constructor(
    readonly result: T,
    readonly message = 'OK',
    readonly status = 200,
  ) {}
}

/**
 * A handler's answer streamed in chunks rather than built whole (see `HttpResponse.stream`):
 * sent with status 200 and `headers`, never kept by the response cache.
 */
export class StreamedResult {
  constructor(
    readonly chunks: AsyncIterable<Uint8Array>,
    readonly headers: Readonly<Record<string, string>>,
  ) {}
}

/**
 * What a handler may answer: the `result` its route's `response` schema describes (typed from the
 * schema, so a handler that drifts from the API description fails the typecheck), the same
 * wrapped in a `RouteResult`, an array result already serialised, or a stream; `unknown` for a route without a `response`.
 */
export type RouteAnswer<T> = T | RouteResult<T> | StreamedResult | TextOf<T> | Promise<T | RouteResult<T> | StreamedResult | TextOf<T>>;

/** An array result may come already serialised. */
type TextOf<T> = T extends readonly (infer E)[] ? JsonArrayText<E> : never;

/**
 * One row of the route table: method, path (`:name` marks a parameter), auth requirement,
 * zod schemas for each input, and the handler returning the envelope's `result`.
 */
export interface Route<
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth: RouteAuth;
  /**
   * The scope an authenticated caller needs (default `read`); anonymous callers of a public
   * route need none.
   */
  scope?: Scope;
  summary: string;
  /**
   * `head`: the answer depends only on the URL, the chain data up to the indexed head and address
   * labels (not on the caller, the wall clock or other operator data), so it may be served from
   * the response cache until the head moves or labels change. Auth, scopes and rate limits still
   * apply to every request.
   */
  cache?: 'head';
  /**
   * With `cache: 'head'`, when the answer reads nothing of the chain but these scopes (named by
   * the indexer's lineage, such as one token's transfers) and has no head-relative figure (no
   * confirmations): it is then served across new blocks until one touches a scope. Given the
   * path parameters and the query as sent (an answer to inputs that do not validate is never
   * kept); `undefined` when this request's answer depends on more (a range from the moving head),
   * so it is kept for its head alone.
   */
  cacheScopes?: (params: Readonly<Record<string, string>>, query: Readonly<Record<string, unknown>>) => string[] | undefined;
  /**
   * With `cache: 'head'`, for a route whose answers are not all of that kind (Etherscan's `/api`,
   * whose actions range from indexed lists to the node's live state): whether this request's
   * answer may be kept, given the query as sent; by default every answer may.
   */
  cacheable?: (query: Readonly<Record<string, unknown>>) => boolean;
  /**
   * With `cacheScopes`: whether an answer (its parsed query, its handler's result and the path parameters) is a full
   * page of a list read oldest first, which later blocks only append to. Such an answer stays true
   * until a reorg, whatever later blocks touch its scopes, and is served across them; or, as a
   * list of scopes, until a reorg or a block touching one of those (what changes the page however
   * the list grows: a contract's verification, which changes how its logs decode).
   */
  appendOnlyPage?: (query: z.output<Q>, result: unknown, params: Readonly<Record<string, string>>) => boolean | readonly string[];
  /**
   * Also accept `application/x-www-form-urlencoded` bodies (an object of strings, the first value
   * of a repeated key) besides JSON, as HTML forms and Etherscan clients post them.
   */
  formBody?: boolean;
  /**
   * A body or query parameter carrying an API key, authenticated exactly like `X-API-Key` (the
   * header wins when both are sent; an empty value is no key). Etherscan clients send `apikey`.
   */
  apiKeyParam?: string;
  /**
   * How many requests one request counts as against the caller's rate limit, from its parsed
   * body (a JSON-RPC batch: its entries); default 1. The body is read before authentication.
   */
  weight?: (body: unknown) => number;
  /** How answers and errors are written; default the envelope with decisions.md's HTTP codes. */
  format?: ResponseFormat;
  params?: P;
  query?: Q;
  body?: B;
  /** The `result` a success answers, for the API description (`/api/v1/openapi.json`); never checked at run time. */
  response?: R;
  /**
   * Errors the handler answers from the data or the node (`BLOCK_NOT_FOUND`,
   * `UPSTREAM_UNAVAILABLE`), for the API description; input, credential, scope, body size and
   * rate-limit errors follow from the rest of the row.
   */
  errors?: readonly ErrorCode[];
  handler: (context: RouteContext<z.output<P>, z.output<Q>, z.output<B>>) => RouteAnswer<z.output<R>>;
}

/**
 * Declares a route with its input types inferred from the schemas and its handler's result
 * checked against its `response` schema.
 */
export function defineRoute<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType = z.ZodType>(
  route: Route<P, Q, B, R>,
): Route {
  return route as unknown as Route;
}
