import type { AddressInfo } from 'node:net';
import { createExplorer, handleClientError, type Explorer } from '@chainlens/core';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { chainlens } from '../src/index.js';

describe('WebSocket figures in GET /metrics', () => {
  let chain: TestChain;
  let explorer: Explorer;
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    chain = await createTestChain();
    explorer = await createExplorer({ rpcUrl: chain.rpcUrl, storage: memoryStorage(), logger: pino({ level: 'silent' }), metrics: { scope: null } });
    app = Fastify({ clientErrorHandler: handleClientError });
    await app.register(chainlens, { explorer });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await explorer?.close();
    await chain?.close();
  });

  const scrape = async () => (await fetch(`http://${url}/metrics`)).text();

  it('counts open connections per path and subscriptions per channel, and drops them when sockets close', async () => {
    const socket = new WebSocket(`ws://${url}/ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const acked = new Promise((resolve) => socket.once('message', resolve));
    socket.send(JSON.stringify({ event: 'subscribe', channel: 'blocks' }));
    await acked;
    const open = await scrape();
    expect(open).toContain('chainlens_websocket_connections{path="/ws"} 1');
    expect(open).toContain('chainlens_websocket_subscriptions{path="/ws",channel="blocks"} 1');
    socket.close();
    const closed = await waitFor(async () => {
      const text = await scrape();
      return text.includes('chainlens_websocket_connections{path="/ws"} 1') ? null : text;
    }, 'the connection to be dropped');
    expect(closed).not.toContain('chainlens_websocket_subscriptions{path="/ws",channel="blocks"} 1');
  });
});
