/**
 * Reads the explorer's public API from the server that served the page: REST `/api/v1` (the
 * envelope), the Etherscan-compatible `/api`, wherever ChainLens is mounted (`data-root`, set by
 * the server, is the mount point relative to the page).
 */
const ROOT = new URL(document.documentElement.dataset['root'] ?? './', location.href);

/** An answer the page cannot show as data: `status` is the HTTP status (0 when the server could not be reached). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The record or route does not exist (404). */
  get notFound(): boolean {
    return this.status === 404;
  }

  /** The server refused the input (400). */
  get badRequest(): boolean {
    return this.status === 400;
  }
}

type Query = Record<string, string | number | boolean | undefined>;

/** `path` (relative to the mount point, e.g. `api/v1/health`) with `query`, as an absolute URL. */
export function apiUrl(path: string, query: Query = {}): URL {
  const url = new URL(path, ROOT);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url;
}

/** The WebSocket URL of the channels (`ws` beside the API). */
export function socketUrl(): string {
  const url = new URL('ws', ROOT);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

async function read(url: URL): Promise<{ status: number; body: { status?: string; message?: string; result?: unknown } }> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
  } catch {
    throw new ApiError(0, 'The explorer server could not be reached');
  }
  try {
    return { status: response.status, body: (await response.json()) as { status?: string; message?: string; result?: unknown } };
  } catch {
    throw new ApiError(response.status, `The server answered HTTP ${response.status} without a readable body`);
  }
}

/** The `result` of a REST `/api/v1/{path}` answer; an {@link ApiError} with the envelope's message otherwise. */
export async function v1<T>(path: string, query?: Query): Promise<T> {
  const { status, body } = await read(apiUrl(`api/v1/${path}`, query));
  if (status !== 200 || body.status !== '1') throw new ApiError(status, body.message ?? `HTTP ${status}`);
  return body.result as T;
}

/**
 * The `result` of an Etherscan-compatible `/api` answer (an empty list is `[]`); an
 * {@link ApiError} with Etherscan's reason otherwise.
 */
export async function etherscan<T>(module: string, action: string, query: Query = {}): Promise<T> {
  const { status, body } = await read(apiUrl('api', { module, action, ...query }));
  if (body.status === '1' || Array.isArray(body.result)) return body.result as T;
  throw new ApiError(status, typeof body.result === 'string' ? body.result : (body.message ?? `HTTP ${status}`));
}

/**
 * The `result` of a node read through the Etherscan-compatible `proxy` module (a JSON-RPC body);
 * an {@link ApiError} with the node's message otherwise.
 */
export async function nodeRead<T>(action: string, query: Query = {}): Promise<T> {
  const { status, body } = await read(apiUrl('api', { module: 'proxy', action, ...query }));
  const answer = body as { result?: unknown; error?: { message?: string } };
  if (answer.error !== undefined || answer.result === undefined) throw new ApiError(status, answer.error?.message ?? (typeof body.result === 'string' ? body.result : `HTTP ${status}`));
  return answer.result as T;
}
