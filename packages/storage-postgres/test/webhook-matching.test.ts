import { webhookOutbox, webhookTraceOutbox, type StoredWebhook, type StoredWebhookDelivery } from '@chainlens/core';
import { makeAddressPool, makeChain, withInternalTransactions } from '@chainlens/testing';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tracesOf, withoutTraces } from '../../testing/src/trace-fixtures.js';
import { createStorage, testSchemas } from './database.js';

const schemas = testSchemas();
const HOOK = '00000000-0000-4000-8000-0000000000a1';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts the statements that match written addresses against webhook subscriptions, on any connection. */
function countMatching(): () => number {
  const query = vi.spyOn(pg.Client.prototype, 'query');
  const text = (statement: unknown) => (typeof statement === 'string' ? statement : (statement as { text?: string } | null)?.text ?? '');
  return () => query.mock.calls.filter(([statement]) => text(statement).includes('webhook_subscriptions')).length;
}

describe('webhook matching of Postgres writes', () => {
  it('is skipped while no webhook is active; a webhook created or disabled through another instance counts from the next write', async () => {
    const schema = schemas.next();
    const writer = await createStorage(schema);
    const other = await createStorage(schema);
    try {
      await writer.init();
      await other.init();
      const pool = makeAddressPool(6);
      const chain = withInternalTransactions(makeChain({ blocks: 9, txPerBlock: 3, addresses: pool }));
      const matching = countMatching();
      /** Writes blocks `from…to - 1`, then their traces; resolves how many matching statements the writes ran. */
      const write = async (from: number, to: number) => {
        const before = matching();
        await writer.writeBlocks(chain.slice(from, to).map(withoutTraces));
        await writer.writeBlockTraces(chain.slice(from, to).map(tracesOf));
        return matching() - before;
      };

      expect(await write(0, 3)).toBe(0);

      const watched = pool[0]!;
      const hook: StoredWebhook = {
        id: HOOK, userId: '00000000-0000-4000-8000-00000000000a', url: 'https://hooks.example/in', events: ['address_activity', 'block'],
        addresses: [watched], tokens: [], description: null, secret: 'whsec_0123', previousSecret: null, previousSecretExpiresAt: null,
        active: true, disabledReason: null, failingSince: null, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000,
      };
      expect(await other.createWebhook(hook, 10)).toBe(true);
      // One matching of the blocks, one of their traces.
      expect(await write(3, 6)).toBe(2);
      const addressHooks = new Map([[watched, [HOOK]]]);
      const told = chain.slice(3, 6);
      const expected = [
        ...told.flatMap((bundle) => webhookOutbox(withoutTraces(bundle), { blockHooks: [HOOK], addressHooks, tokenHooks: new Map() })),
        ...told.flatMap((bundle) => webhookTraceOutbox(tracesOf(bundle), addressHooks)),
      ].map(({ webhookId, event, blockNumber, blockHash, subject }) => ({ webhookId, event, blockNumber, blockHash, subject }));
      const shape = (deliveries: StoredWebhookDelivery[]) =>
        deliveries.reverse().map(({ webhookId, event, blockNumber, blockHash, subject }) => ({ webhookId, event, blockNumber, blockHash, subject }));
      const enqueued = shape(await writer.listWebhookDeliveries({ webhookId: HOOK, limit: 10_000 }));
      expect(enqueued).toEqual(expected);
      expect(enqueued.some((delivery) => delivery.subject.kind === 'internal_transaction')).toBe(true);

      await other.updateWebhook(HOOK, { active: false });
      expect(await write(6, 9)).toBe(0);
      expect(shape(await writer.listWebhookDeliveries({ webhookId: HOOK, limit: 10_000 }))).toEqual(expected);
    } finally {
      await Promise.all([writer.close(), other.close()]);
    }
  });
});
