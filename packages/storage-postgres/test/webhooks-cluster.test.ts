import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExplorer, type Explorer, type Storage } from '@chainlens/core';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { FAST_WEBHOOKS, startNodeRelay, startWebhookReceiver, waitFor, type WebhookReceiver } from '@chainlens/testing';
import { bundleChild } from './child-bundle.js';
import { clusterInstance, createStorage, testDatabaseUrl, testSchemas } from './database.js';

const CHILD_SOURCE = fileURLToPath(new URL('./fixtures/webhook-explorer.ts', import.meta.url));
/** The child's entry bundled (see `bundleChild`): each start of it costs a fraction of tsx's. */
let CHILD: string;
const schemas = testSchemas();

describe('webhooks on a Postgres cluster', () => {
  let chain: TestChain;
  let receiver: WebhookReceiver;
  const watched = () => chain.accounts[5]!.address;

  beforeAll(async () => {
    [chain, receiver, CHILD] = await Promise.all([createTestChain(), startWebhookReceiver(), bundleChild(CHILD_SOURCE)]);
  });
  afterAll(async () => {
    await receiver?.close();
    await chain?.close();
  });

  /** Sends `count` ether transfers to the watched address, each in its own block. */
  async function transfers(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const hash = await chain.walletClients[1]!.sendTransaction({ to: watched(), value: BigInt(i + 1) });
      await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    }
  }

  /** A hook of a made-up user on `explorer`, trusted by the receiver. */
  async function hookOn(explorer: Explorer, events: ('address_activity' | 'block')[]): Promise<string> {
    const hook = await explorer.webhooks.create(randomUUID(), { url: receiver.url, events, addresses: [watched().toLowerCase() as `0x${string}`] });
    receiver.trust(hook.id, hook.secret);
    return hook.id;
  }

  const outbox = async (storage: Storage, webhookId: string) => (await storage.listWebhookDeliveries({ webhookId, limit: 10_000 })).reverse();
  const sentBy = async (explorer: Explorer) => (await explorer.metrics!.registry.getSingleMetric('chainlens_webhook_deliveries_sent_total')!.get()).values[0]?.value ?? 0;

  it('killed (SIGKILL) with deliveries pending, the product sends them all on restart, in order', async () => {
    const url = await testDatabaseUrl();
    const schema = schemas.next();
    // Registers the hook and reads the outbox; neither indexes nor sends.
    const admin = await createExplorer({ rpcUrl: chain.rpcUrl, storage: await createStorage(schema), logLevel: 'silent', indexer: { enabled: false }, webhooks: { ...FAST_WEBHOOKS, dispatch: false } });
    let child: ChildProcess | null = null;
    const startChild = async () => {
      child = spawn(process.execPath, ['--conditions=source', CHILD, chain.rpcUrl, url, schema], { stdio: ['ignore', 'pipe', 'inherit'] });
      await once(child.stdout!, 'data');
    };
    try {
      const id = await hookOn(admin, ['address_activity']);
      receiver.answer = (delivery) => (delivery.webhookId === id ? 500 : 200);
      await startChild();
      await transfers(4);
      await waitFor(async () => {
        const all = await outbox(admin.storage, id);
        return all.length >= 4 && all.some((delivery) => delivery.attempts > 0);
      }, 'pending deliveries being retried');
      const exited = once(child!, 'exit');
      child!.kill('SIGKILL');
      await exited;
      const pending = await outbox(admin.storage, id);
      expect(pending.every((delivery) => delivery.status === 'pending')).toBe(true);
      expect(pending.some((delivery) => delivery.attempts > 0)).toBe(true);
      // Blocks mined while it is down are indexed, and told, after the restart.
      await transfers(2);
      receiver.answer = () => 200;
      await startChild();
      const delivered = await waitFor(async () => {
        const all = await outbox(admin.storage, id);
        return all.length >= 6 && all.every((delivery) => delivery.status === 'delivered') ? all : null;
      }, 'every delivery after the restart', 30_000);
      const accepted = receiver.accepted().filter((delivery) => delivery.webhookId === id);
      expect(accepted.map((delivery) => delivery.deliveryId)).toEqual(delivered.map((delivery) => delivery.id));
      expect(accepted.every((delivery) => delivery.signatureValid)).toBe(true);
      expect(accepted.map((delivery) => delivery.body.data.transaction.value)).toEqual(['1', '2', '3', '4', '1', '2']);
    } finally {
      receiver.answer = () => 200;
      (child as ChildProcess | null)?.kill('SIGKILL');
      await admin.close();
    }
  }, 90_000);

  it('two instances on one Postgres never both send one delivery', async () => {
    const schema = schemas.next();
    const config = { logLevel: 'silent' as const, indexer: { pollIntervalMs: 20 }, webhooks: { ...FAST_WEBHOOKS, concurrency: 2 } };
    const a = await clusterInstance(chain.rpcUrl, schema, config);
    const b = await clusterInstance(chain.rpcUrl, schema, config);
    try {
      const ids = [await hookOn(a, ['block']), await hookOn(a, ['block']), await hookOn(b, ['block', 'address_activity']), await hookOn(b, ['block'])];
      // Slow answers keep leases held while the other instance claims.
      receiver.delayMs = 15;
      await Promise.all([a.start(), b.start()]);
      await transfers(3);
      await chain.publicClient.request({ method: 'anvil_mine' as never, params: ['0xc'] as never });
      const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      const stored = await waitFor(async () => {
        const all = (await Promise.all(ids.map((id) => outbox(a.storage, id)))).flat();
        const through = all.filter((delivery) => delivery.event === 'block' && delivery.blockNumber === head).length === 4;
        return through && all.every((delivery) => delivery.status === 'delivered') ? all : null;
      }, 'every delivery of four hooks', 30_000);
      const got = receiver.received.filter((delivery) => ids.includes(delivery.webhookId));
      const perDelivery = new Map<string, number>();
      for (const delivery of got) perDelivery.set(delivery.deliveryId, (perDelivery.get(delivery.deliveryId) ?? 0) + 1);
      expect([...perDelivery.values()].every((count) => count === 1)).toBe(true);
      expect(new Set(perDelivery.keys())).toEqual(new Set(stored.map((delivery) => delivery.id)));
      const [sentA, sentB] = [await sentBy(a), await sentBy(b)];
      expect(sentA + sentB).toBe(stored.length);
      expect(sentA).toBeGreaterThan(0);
      expect(sentB).toBeGreaterThan(0);
    } finally {
      receiver.delayMs = 0;
      await Promise.all([a.close(), b.close()]);
    }
  }, 90_000);

  it('where the node cannot trace, an instance that does not index sends address activity too: the indexing one tells it so', async () => {
    const node = await startNodeRelay(chain.rpcUrl);
    node.refused.add('trace_block').add('debug_traceBlockByHash');
    const schema = schemas.next();
    const config = { logLevel: 'silent' as const, indexer: { pollIntervalMs: 20 }, webhooks: { ...FAST_WEBHOOKS, concurrency: 2 } };
    const indexing = await clusterInstance(node.url, schema, config);
    const serving = await clusterInstance(node.url, schema, config);
    try {
      await indexing.start();
      await waitFor(() => indexing.indexer.status.running && indexing.indexer.status.tracing?.support === 'no', 'the indexing instance to find that the node does not trace');
      await serving.start();
      // Address activity waits for traces where the node traces: only what the serving instance was told lets it send.
      const ids = await Promise.all([0, 1, 2, 3].map(() => hookOn(indexing, ['address_activity'])));
      receiver.delayMs = 15;
      await transfers(4);
      const stored = await waitFor(async () => {
        const all = (await Promise.all(ids.map((id) => outbox(indexing.storage, id)))).flat();
        return all.length === 16 && all.every((delivery) => delivery.status === 'delivered') ? all : null;
      }, 'every delivery of four hooks', 30_000);
      const perDelivery = new Map<string, number>();
      for (const delivery of receiver.received.filter((delivery) => ids.includes(delivery.webhookId))) perDelivery.set(delivery.deliveryId, (perDelivery.get(delivery.deliveryId) ?? 0) + 1);
      expect([...perDelivery.values()].every((count) => count === 1)).toBe(true);
      expect(new Set(perDelivery.keys())).toEqual(new Set(stored.map((delivery) => delivery.id)));
      expect(serving.indexer.status.running).toBe(false);
      expect(await sentBy(serving)).toBeGreaterThan(0);
      expect((await sentBy(indexing)) + (await sentBy(serving))).toBe(16);
    } finally {
      receiver.delayMs = 0;
      await Promise.all([indexing.close(), serving.close()]);
      await node.close();
    }
  }, 90_000);
});
