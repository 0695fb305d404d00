import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '../errors/index.js';
import { NodeRpcError } from './node-rpc-error.js';
import { BatchRefusedError, postBatch } from './rpc-batch.js';

/** A stand-in for a node's faults: each path answers a batch in its own broken or correct way. */
const answers: Record<string, (body: { id: number }[], response: ServerResponse) => void> = {
  '/ok': (body, response) => response.end(JSON.stringify([...body].reverse().map(({ id }) => (id === 1 ? { jsonrpc: '2.0', id, error: { code: -32000, message: 'no' } } : { jsonrpc: '2.0', id, result: `r${id}` })))),
  '/status': (_, response) => response.writeHead(503).end('busy'),
  '/silent': () => undefined,
  '/truncated': (_, response) => response.end('[{"jsonrpc":"2.0","id":0,"res'),
  '/single': (_, response) => response.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batches off' } })),
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => answers[request.url!]!(JSON.parse(text) as { id: number }[], response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const calls = [0, 1, 2].map((i) => ({ method: 'eth_m', params: [i] }));

describe('postBatch', () => {
  it("answers each call's result or node error in the calls' order, whatever order the node answered in", async () => {
    const outcomes = await postBatch(`${base}/ok`, calls, 2_000);
    expect(outcomes[0]).toEqual({ result: 'r0' });
    expect((outcomes[1] as { error: NodeRpcError }).error).toMatchObject({ code: -32000, message: 'no' });
    expect(outcomes[2]).toEqual({ result: 'r2' });
  });

  it('is UpstreamUnavailableError for an error status, truncated JSON and a node silent past the timeout', async () => {
    await expect(postBatch(`${base}/status`, calls, 2_000)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(postBatch(`${base}/truncated`, calls, 2_000)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    const started = performance.now();
    await expect(postBatch(`${base}/silent`, calls, 300)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('is BatchRefusedError for a node that answers a batch with one answer', async () => {
    await expect(postBatch(`${base}/single`, calls, 2_000)).rejects.toBeInstanceOf(BatchRefusedError);
  });
});
