import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the relay misbehaves instead of relaying: never answering, an HTTP error, or a cut-off body. */
export type NodeFault = 'timeout' | 'http-500' | 'http-429' | 'truncated-json';

/**
 * An HTTP relay in front of a real node, between ChainLens and anvil: it records every JSON-RPC
 * method it is asked for, answers the methods in `refused` as a node without them does (-32601),
 * fails the next calls of the methods in `failing` as a node failing a call does (-32603), holds
 * back the answers of the methods in `delays` as a slow node does, keeps the node's answers of
 * the methods in `holds` until their promise settles (an answer that arrives after the chain
 * moved on), and, while `fault` is set, misbehaves as a failing node does.
 */
export interface NodeRelay {
  url: string;
  /** Every method asked for, batch entries one by one, in arrival order. */
  readonly methods: string[];
  /** Methods answered with -32601 without reaching the node. */
  readonly refused: Set<string>;
  /** How many more calls of these methods are answered with -32603 (internal error) without reaching the node. */
  readonly failing: Map<string, number>;
  /** Milliseconds by which the answers of these methods are held back. */
  readonly delays: Map<string, number>;
  /** Answers of these methods, once the node gave them, are kept until the promise settles. */
  readonly holds: Map<string, Promise<unknown>>;
  fault: NodeFault | null;
  close(): Promise<void>;
}

interface RpcEntry {
  id?: unknown;
  method?: unknown;
}

/** Starts a {@link NodeRelay} in front of `target` on a free local port. */
export async function startNodeRelay(target: string): Promise<NodeRelay> {
  const relay: Omit<NodeRelay, 'url' | 'close'> = { methods: [], refused: new Set(), failing: new Map(), delays: new Map(), holds: new Map(), fault: null };

  async function forward(body: string): Promise<{ status: number; text: string }> {
    const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: answer.status, text: await answer.text() };
  }

  /** Whether the relay answers `entry` itself instead of the node. */
  function intercepted(entry: RpcEntry): boolean {
    return typeof entry.method === 'string' && (relay.refused.has(entry.method) || (relay.failing.get(entry.method) ?? 0) > 0);
  }

  async function answerEntry(entry: RpcEntry): Promise<unknown> {
    const method = String(entry.method);
    if (relay.refused.has(method)) {
      return { jsonrpc: '2.0', id: entry.id ?? null, error: { code: -32601, message: `the method ${method} does not exist/is not available` } };
    }
    const failures = relay.failing.get(method) ?? 0;
    if (failures > 0) {
      relay.failing.set(method, failures - 1);
      return { jsonrpc: '2.0', id: entry.id ?? null, error: { code: -32603, message: 'internal error' } };
    }
    return JSON.parse((await forward(JSON.stringify(entry))).text) as unknown;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const parsed = JSON.parse(body) as RpcEntry | RpcEntry[];
    const entries = Array.isArray(parsed) ? parsed : [parsed];
    for (const entry of entries) relay.methods.push(String(entry.method));
    const delay = Math.max(0, ...entries.map((entry) => relay.delays.get(String(entry.method)) ?? 0));
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    switch (relay.fault) {
      case 'timeout':
        return; // never answered; close() drops the connection
      case 'http-500':
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
        return;
      case 'http-429':
        response.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'rate limited' } }));
        return;
      case 'truncated-json':
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"resu');
        return;
      case null:
        break;
    }
    const held = Promise.allSettled(entries.map((entry) => relay.holds.get(String(entry.method))));
    if (!entries.some(intercepted)) {
      const { status, text } = await forward(body);
      await held;
      response.writeHead(status, { 'content-type': 'application/json' }).end(text);
      return;
    }
    const answers = await Promise.all(entries.map(answerEntry));
    await held;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(relay, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
