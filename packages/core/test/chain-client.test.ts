import { createChainClient } from '@chainlens/core';
import { startAnvil, type AnvilInstance } from '@chainlens/devchain';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** An HTTP relay in front of anvil that records each POST body it forwards. */
async function relay(target: string, bodies: unknown[]): Promise<{ url: string; server: Server }> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    bodies.push(JSON.parse(body));
    const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('createChainClient', () => {
  let node: AnvilInstance;
  let server: Server;
  const bodies: unknown[] = [];
  let url: string;
  beforeAll(async () => {
    node = await startAnvil();
    ({ url, server } = await relay(node.rpcUrl, bodies));
  });
  afterAll(async () => {
    server?.close();
    await node?.stop();
  });

  it('with batchSize, sends the requests of one tick as JSON-RPC batches of at most that size, each answered on its own', async () => {
    const client = createChainClient({ rpcUrl: url, timeoutMs: 5_000, batchSize: 3 });
    bodies.length = 0;
    const answers = await Promise.allSettled([
      client.request<string>('eth_chainId'),
      client.request<string>('eth_blockNumber'),
      client.request<string>('eth_getBalance', ['0x0000000000000000000000000000000000000001', 'latest']),
      client.request<string>('eth_no_such_method'),
    ]);
    expect(bodies.map((body) => (Array.isArray(body) ? body.length : 1))).toEqual([3, 1]);
    expect(answers.map((answer) => answer.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect((answers[0] as PromiseFulfilledResult<string>).value).toBe('0x7a69');
  });

  it('without batchSize, sends one request per call', async () => {
    const client = createChainClient({ rpcUrl: url, timeoutMs: 5_000 });
    bodies.length = 0;
    await Promise.all([client.request('eth_chainId'), client.request('eth_blockNumber')]);
    expect(bodies.every((body) => !Array.isArray(body))).toBe(true);
    expect(bodies).toHaveLength(2);
  });
});
