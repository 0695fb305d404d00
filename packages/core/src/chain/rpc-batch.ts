import { UpstreamUnavailableError } from '../errors/index.js';
import { NodeRpcError } from './node-rpc-error.js';

/** One call of a batch. */
export interface RpcCall {
  method: string;
  params: readonly unknown[];
}

/** What the node answered to one call of a batch: its result, or its error. */
export type RpcOutcome = { result: unknown } | { error: NodeRpcError };

/** A node that answered a batch with something other than one answer per call. */
export class BatchRefusedError extends Error {
  constructor(readonly answer: unknown) {
    super('the node does not answer JSON-RPC batches');
    this.name = 'BatchRefusedError';
  }
}

interface RpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string; data?: unknown };
}

/**
 * Sends `calls` to the node as one JSON-RPC batch in one HTTP request, and resolves each call's
 * outcome in order. For the indexer's hot path: one request per block instead of a client's
 * per-call machinery, which cost more of a core than the node's own work for a block. A network
 * failure, a timeout or an HTTP error status is {@link UpstreamUnavailableError}; an answer that
 * is not one entry per call (a node without batches) is {@link BatchRefusedError}.
 */
export async function postBatch(url: string, calls: readonly RpcCall[], timeoutMs: number): Promise<RpcOutcome[]> {
  const body = JSON.stringify(calls.map((call, id) => ({ jsonrpc: '2.0', id, method: call.method, params: call.params })));
  let answer: unknown;
  // A timer of its own: AbortSignal.timeout() makes a transferable signal, a cost on every block's request.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: abort.signal });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    answer = await response.json();
  } catch (error) {
    throw new UpstreamUnavailableError(error);
  } finally {
    clearTimeout(timer);
  }
  if (!Array.isArray(answer) || answer.length !== calls.length) throw new BatchRefusedError(answer);
  const byId = new Map((answer as RpcAnswer[]).map((entry) => [entry.id, entry]));
  return calls.map((_, id) => {
    const entry = byId.get(id);
    if (!entry) throw new BatchRefusedError(answer);
    if (entry.error) return { error: new NodeRpcError(entry.error.code ?? 0, entry.error.message ?? 'error', entry.error.data) };
    return { result: entry.result };
  });
}
