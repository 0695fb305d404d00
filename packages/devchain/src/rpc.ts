/** A JSON-RPC error answered by the node. */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${message} (code ${code})`);
    this.name = 'RpcError';
  }
}

/** One call inside a {@link rpcBatch}. */
export interface RpcRequest {
  method: string;
  params?: unknown[];
}

interface RpcResponse {
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * Sends one JSON-RPC call with plain `fetch`. Used where a viem client would be overhead:
 * readiness probes before the node is up and anvil-only methods.
 */
export async function rpcCall<T = unknown>(
  url: string,
  method: string,
  params: unknown[] = [],
  timeoutMs = 30_000,
): Promise<T> {
  const [response] = await post(url, { jsonrpc: '2.0', id: 0, method, params }, timeoutMs);
  return unwrap<T>(method, response);
}

/**
 * Sends many calls in one HTTP request and returns their results in request order; throws the
 * first {@link RpcError}. The node may run batch members concurrently, so only batch calls
 * whose order does not matter.
 */
export async function rpcBatch<T = unknown>(
  url: string,
  requests: RpcRequest[],
  timeoutMs = 30_000,
): Promise<T[]> {
  if (requests.length === 0) return [];
  const body = requests.map((r, id) => ({ jsonrpc: '2.0', id, method: r.method, params: r.params ?? [] }));
  const byId = new Map((await post(url, body, timeoutMs)).map((r) => [r.id, r]));
  return requests.map((r, id) => unwrap<T>(r.method, byId.get(id)));
}

async function post(url: string, body: unknown, timeoutMs: number): Promise<RpcResponse[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`JSON-RPC HTTP ${response.status} from ${url}`);
  const json = (await response.json()) as RpcResponse | RpcResponse[];
  return Array.isArray(json) ? json : [json];
}

function unwrap<T>(method: string, response: RpcResponse | undefined): T {
  if (!response) throw new RpcError(method, -32603, 'no response in batch');
  if (response.error) throw new RpcError(method, response.error.code, response.error.message);
  return response.result as T;
}
