/** One JSON-RPC call over plain `fetch`: what the "node limit" baseline and setup steps use. */
export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const answer = (await post(url, { jsonrpc: '2.0', id: 1, method, params }, method)) as { result?: T; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result as T;
}

/** Calls as one JSON-RPC batch in one request: each call's result, in order (any error answer throws). */
export async function rpcBatch(url: string, calls: readonly [method: string, params: unknown[]][]): Promise<unknown[]> {
  const body = calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params }));
  const answers = (await post(url, body, 'batch')) as { id: number; result?: unknown; error?: { message: string } }[];
  return calls.map(([method], id) => {
    const answer = answers.find((entry) => entry.id === id);
    if (!answer || answer.error) throw new Error(`${method}: ${answer?.error?.message ?? 'no answer'}`);
    return answer.result;
  });
}

/** POSTs `body` as JSON and resolves the JSON answer; `what` names the request in an HTTP error. */
async function post(url: string, body: unknown, what: string): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status}`);
  return response.json();
}

/** A JSON-RPC quantity. */
export const quantity = (n: bigint): string => `0x${n.toString(16)}`;
