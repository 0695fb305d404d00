import type { AddressInfo } from 'node:net';
import { chainlens } from '@chainlens/adapter-fastify';
import type { Explorer } from '@chainlens/core';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { clusterInstance, testSchemas } from './database.js';

const schemas = testSchemas();

describe('channels across instances on one Postgres schema', () => {
  let chain: TestChain;
  const instances: Explorer[] = [];
  const apps: FastifyInstance[] = [];
  const sockets: WebSocket[] = [];
  beforeAll(async () => {
    chain = await createTestChain();
  });
  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    for (const app of apps) await app.close();
    for (const instance of instances) await instance.close();
    await chain?.close();
  });

  /** An instance serving `/ws`, with the `alerts` channel defined. */
  async function instance(schema: string): Promise<{ explorer: Explorer; wsUrl: string }> {
    const explorer = await clusterInstance(chain.rpcUrl, schema, { indexer: { pollIntervalMs: 50 }, cluster: { leaseRetryMs: 200 } });
    instances.push(explorer);
    explorer.channels.define('alerts', { addressed: true });
    const app = Fastify();
    apps.push(app);
    await app.register(chainlens, { explorer });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { explorer, wsUrl: `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws` };
  }

  /** A client subscribed to `subscriptions`, collecting data messages. */
  async function listen(wsUrl: string, subscriptions: object[]): Promise<Record<string, any>[]> {
    const socket = new WebSocket(wsUrl);
    sockets.push(socket);
    const received: Record<string, any>[] = [];
    let acks = 0;
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Record<string, any>;
      if (message.event === 'subscribed') acks++;
      else received.push(message);
    });
    await new Promise((resolve) => socket.once('open', resolve));
    for (const subscription of subscriptions) socket.send(JSON.stringify({ event: 'subscribe', ...subscription }));
    await waitFor(() => acks === subscriptions.length, 'the subscriptions to be acknowledged');
    return received;
  }

  it('a custom channel published on one instance reaches subscribers on the other, and so do blocks the other indexes', async () => {
    const schema = schemas.next();
    const [a, b] = [await instance(schema), await instance(schema)];
    await Promise.all([a.explorer.start(), b.explorer.start()]);
    const address = '0x00000000000000000000000000000000000a1e27';
    const onA = await listen(a.wsUrl, [{ channel: 'alerts', address }, { channel: 'blocks' }]);
    const onB = await listen(b.wsUrl, [{ channel: 'alerts', address }, { channel: 'blocks' }]);

    a.explorer.channels.publish('alerts', { text: 'from a' }, { address, blockNumber: 7n });
    const expected = { sequence: 1, channel: 'alerts', address, blockNumber: '7', data: { text: 'from a' } };
    await waitFor(() => onB.some((m) => m.channel === 'alerts'), 'the publish to cross to b');
    expect(onA.filter((m) => m.channel === 'alerts')).toEqual([expected]);
    expect(onB.filter((m) => m.channel === 'alerts')).toEqual([expected]);

    const hash = await chain.walletClient.sendTransaction({ to: chain.accounts[1]!.address, value: 1n });
    const { blockNumber } = await chain.publicClient.waitForTransactionReceipt({ hash });
    for (const received of [onA, onB]) await waitFor(() => received.some((m) => m.channel === 'blocks' && m.blockNumber === blockNumber.toString()), 'the block on both instances');
    expect(() => a.explorer.channels.publish('alerts', { padding: 'x'.repeat(8_000) }, { address })).toThrow(/at most 7000 cross instances/);
  });
});
