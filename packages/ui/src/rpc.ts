import { ApiError, apiUrl } from './api.js';

/** A JSON-RPC error answer (`execution reverted`, …), its code and data as the node gave them. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

let nextId = 1;

/** Calls `method` on the explorer's own JSON-RPC endpoint (`POST` at the mount point). */
export async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  let response: Response;
  try {
    response = await fetch(apiUrl(''), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }) });
  } catch {
    throw new ApiError(0, 'The explorer server could not be reached');
  }
  const answer = (await response.json().catch(() => null)) as { result?: T; error?: { code: number; message: string; data?: unknown } } | null;
  if (answer === null) throw new ApiError(response.status, `The server answered HTTP ${response.status} without a readable body`);
  if (answer.error) throw new RpcError(answer.error.code, answer.error.message, answer.error.data);
  return answer.result as T;
}
