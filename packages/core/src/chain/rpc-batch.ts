import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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

// Connections to the node are kept open between blocks, as fetch keeps them.
const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

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
  try {
    answer = JSON.parse(await post(new URL(url), body, timeoutMs));
  } catch (error) {
    throw new UpstreamUnavailableError(error);
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

/**
 * POSTs `body` as JSON and resolves the answer's text. Node's own HTTP client rather than
 * `fetch`: on a block's request, fetch's web streams and request objects cost about as much CPU
 * as parsing the answer, CPU the node (often on the same machine) then lacks.
 */
function post(url: URL, body: string, timeoutMs: number): Promise<string> {
  const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : null;
  if (!send) return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol as keyof typeof agents],
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status < 200 || status > 299) reject(new Error(`HTTP ${status}`));
          else resolve(Buffer.concat(chunks).toString('utf8'));
        });
      },
    );
    // The timeout bounds the whole exchange, not only a silence on the socket.
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
