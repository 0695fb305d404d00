import { describe, expect } from 'vitest';
import { webhookOutbox, webhookTraceOutbox, type Hex, type StoredWebhook, type StoredWebhookDelivery, type WebhookMatches } from '@chainlens/core';
import { makeAddressPool, makeChain } from '../fixtures.js';
import { withInternalTransactions } from '../internal-transaction-fixtures.js';
import { tracesOf, withoutTraces } from '../trace-fixtures.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

const ALICE = '00000000-0000-4000-8000-00000000000a';
const BOB = '00000000-0000-4000-8000-00000000000b';
const HOOK_A = '00000000-0000-4000-8000-0000000000a1';
const HOOK_B = '00000000-0000-4000-8000-0000000000b1';

function hook(id: string, userId: string, changes: Partial<StoredWebhook> = {}): StoredWebhook {
  return {
    id, userId, url: 'https://hooks.example/in?x=1', events: ['address_activity'], addresses: [], tokens: [], description: null,
    secret: 'whsec_0123', previousSecret: null, previousSecretExpiresAt: null, active: true, disabledReason: null, failingSince: null,
    createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000, ...changes,
  };
}

/** What `webhookOutbox` gives a chain against one webhook's matches: the reference of what must be enqueued. */
function expected(chain: ReturnType<typeof makeChain>, matches: WebhookMatches) {
  return chain.flatMap((bundle) => webhookOutbox(bundle, matches)).map(({ webhookId, event, blockNumber, blockHash, subject }) => ({ webhookId, event, blockNumber, blockHash, subject }));
}

const shape = (deliveries: StoredWebhookDelivery[]) =>
  deliveries.map(({ webhookId, event, blockNumber, blockHash, subject }) => ({ webhookId, event, blockNumber, blockHash, subject }));

/** Everything pending of `webhookId`, oldest first. */
async function outboxOf(storage: Parameters<Parameters<ReturnType<typeof storageTest>>[1]>[0], webhookId: string): Promise<StoredWebhookDelivery[]> {
  return (await storage.listWebhookDeliveries({ webhookId, limit: 10_000 })).reverse();
}

/** Webhooks and their outbox: records, caps, the outbox written with blocks, rollbacks, leases. */
export function webhookTests(factory: StorageFactory): void {
  const test = storageTest(factory);
  const pool: Hex[] = makeAddressPool(6);

  describe('webhooks', () => {
    test('a webhook reads back equal; updates change it, owners are checked; the cap holds', async (storage) => {
      const a = hook(HOOK_A, ALICE, { addresses: [pool[1]!, pool[0]!].sort(), events: ['address_activity', 'block'], description: 'mine; DROP TABLE x;--' });
      expect(await storage.createWebhook(a, 1)).toBe(true);
      expect(await storage.createWebhook(hook('00000000-0000-4000-8000-0000000000a2', ALICE), 1)).toBe(false);
      expect(await storage.getWebhook(HOOK_A)).toEqual(a);
      expect(await storage.getWebhook(HOOK_A, BOB)).toBeNull();
      expect(await storage.getWebhook('not-a-uuid')).toBeNull();
      const changed = await storage.updateWebhook(HOOK_A, { tokens: [pool[2]!], addresses: [], active: false, disabledReason: 'gone', updatedAt: 5 }, ALICE);
      expect(changed).toEqual({ ...a, tokens: [pool[2]!], addresses: [], active: false, disabledReason: 'gone', updatedAt: 5 });
      expect(await storage.updateWebhook(HOOK_A, { active: true }, BOB)).toBeNull();
      expect(await storage.updateWebhook(HOOK_A, { description: null, disabledReason: null, active: true })).toEqual({ ...changed, description: null, disabledReason: null, active: true });
      expect(await storage.createWebhook(hook(HOOK_B, BOB), 1)).toBe(true);
      expect((await storage.listWebhooks(ALICE)).map((h) => h.id)).toEqual([HOOK_A]);
      expect(await storage.deleteWebhook(HOOK_A, BOB)).toBe(false);
      expect(await storage.deleteWebhook(HOOK_A, ALICE)).toBe(true);
      expect(await storage.getWebhook(HOOK_A)).toBeNull();
    });

    test('concurrent creations of one owner never pass the cap', async (storage) => {
      const ids = Array.from({ length: 6 }, (_, i) => `00000000-0000-4000-8000-0000000001${i.toString().padStart(2, '0')}`);
      const created = await Promise.all(ids.map((id) => storage.createWebhook(hook(id, ALICE), 3)));
      expect(created.filter(Boolean)).toHaveLength(3);
      expect(await storage.listWebhooks(ALICE)).toHaveLength(3);
    });

    test('a block write enqueues exactly what webhookOutbox gives, in its order, for active webhooks only', async (storage) => {
      const chain = makeChain({ blocks: 6, addresses: pool });
      const token = chain.flatMap((b) => b.tokenTransfers)[0]?.token;
      await storage.createWebhook(hook(HOOK_A, ALICE, { events: ['address_activity', 'block'], addresses: [pool[0]!] }), 10);
      await storage.createWebhook(hook(HOOK_B, BOB, { events: ['token_transfer'], tokens: token ? [token] : [], active: false }), 10);
      await writeChain(storage, chain.slice(0, 3));
      await storage.writeBlocks(chain.slice(3));
      const matches: WebhookMatches = { blockHooks: [HOOK_A], addressHooks: new Map([[pool[0]!, [HOOK_A]]]), tokenHooks: new Map() };
      const outbox = await outboxOf(storage, HOOK_A);
      expect(shape(outbox)).toEqual(expected(chain, matches));
      expect(outbox.length).toBeGreaterThan(6);
      expect(outbox.every((d) => d.status === 'pending' && d.attempts === 0 && d.payload === null && !d.removed && d.nextAttemptAt !== null)).toBe(true);
      expect(new Set(outbox.map((d) => d.sequence)).size).toBe(outbox.length);
      expect(await outboxOf(storage, HOOK_B)).toEqual([]);
      expect(await storage.countPendingWebhookDeliveries()).toBe(outbox.length);
    });

    test('claims lease each webhook’s head only, one claimant at a time, until settled or the lease runs out', async (storage) => {
      const chain = makeChain({ blocks: 3, addresses: pool });
      await storage.createWebhook(hook(HOOK_A, ALICE, { events: ['block'] }), 10);
      await storage.createWebhook(hook(HOOK_B, BOB, { events: ['block'] }), 10);
      await writeChain(storage, chain);
      const now = Date.now() + 1_000;
      const [one, two] = await Promise.all([
        storage.claimWebhookDeliveries({ owner: 'one', now, leaseMs: 60_000, limit: 10 }),
        storage.claimWebhookDeliveries({ owner: 'two', now, leaseMs: 60_000, limit: 10 }),
      ]);
      const claimed = [...one!, ...two!];
      expect(claimed.map((d) => d.webhookId).sort()).toEqual([HOOK_A, HOOK_B]);
      expect(claimed.every((d) => d.blockNumber === 0n)).toBe(true);
      expect(await storage.claimWebhookDeliveries({ owner: 'three', now, leaseMs: 60_000, limit: 10 })).toEqual([]);
      const first = claimed.find((d) => d.webhookId === HOOK_A)!;
      const holder = one!.includes(first) ? 'one' : 'two';
      expect(await storage.setWebhookPayload(first.id, 'three', '{}')).toBe(false);
      expect(await storage.setWebhookPayload(first.id, holder, '{"n":1}')).toBe(true);
      expect(await storage.settleWebhookDelivery(first.id, 'three', { status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null, deliveredAt: now })).toBe(false);
      expect(await storage.settleWebhookDelivery(first.id, holder, { status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null, deliveredAt: now })).toBe(true);
      expect(await storage.getWebhookDelivery(HOOK_A, first.id)).toMatchObject({ status: 'delivered', payload: '{"n":1}', attempts: 1, lastStatusCode: 200, deliveredAt: now });
      // The next of HOOK_A is its head now; HOOK_B's head is still leased until its lease runs out.
      const next = await storage.claimWebhookDeliveries({ owner: 'three', now, leaseMs: 60_000, limit: 10 });
      expect(next.map((d) => [d.webhookId, d.blockNumber])).toEqual([[HOOK_A, 1n]]);
      const later = await storage.claimWebhookDeliveries({ owner: 'four', now: now + 61_000, leaseMs: 60_000, limit: 10 });
      expect(later.map((d) => [d.webhookId, d.blockNumber]).sort()).toEqual([[HOOK_A, 1n], [HOOK_B, 0n]].sort());
      // A head not yet due blocks its webhook; a disabled webhook is never claimed.
      const b = later.find((d) => d.webhookId === HOOK_B)!;
      await storage.settleWebhookDelivery(b.id, 'four', { status: 'pending', attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: now + 500_000, deliveredAt: null });
      await storage.updateWebhook(HOOK_A, { active: false });
      expect(await storage.claimWebhookDeliveries({ owner: 'five', now: now + 200_000, leaseMs: 60_000, limit: 10 })).toEqual([]);
      expect(await storage.redeliverWebhookDelivery(HOOK_A, first.id, now)).toMatchObject({ status: 'pending', nextAttemptAt: now, payload: '{"n":1}' });
      expect(await storage.redeliverWebhookDelivery(HOOK_B, first.id, now)).toBeNull();
    });

    test('a rollback drops untold deliveries of removed blocks and enqueues removed: true once for told ones', async (storage) => {
      const chain = makeChain({ blocks: 4, addresses: pool });
      await storage.createWebhook(hook(HOOK_A, ALICE, { events: ['block'] }), 10);
      await writeChain(storage, chain);
      const now = Date.now() + 1_000;
      // Blocks 0..2 are told (block 2 is still being retried); block 3 never was.
      for (let n = 0; n < 3; n++) {
        const [d] = await storage.claimWebhookDeliveries({ owner: 'me', now, leaseMs: 60_000, limit: 1 });
        await storage.setWebhookPayload(d!.id, 'me', `{"block":${n}}`);
        const ok = n < 2;
        await storage.settleWebhookDelivery(d!.id, 'me', { status: ok ? 'delivered' : 'pending', attempts: 1, lastStatusCode: ok ? 200 : 500, lastError: null, nextAttemptAt: ok ? null : now, deliveredAt: ok ? now : null });
      }
      await storage.rollbackTo(0n);
      const fork = makeChain({ blocks: 2, addresses: pool, parent: chain[0]!.block, seed: 'fork' });
      await writeChain(storage, fork);
      await storage.rollbackTo(0n);
      const outbox = await outboxOf(storage, HOOK_A);
      expect(outbox.map((d) => [d.blockNumber, d.removed, d.payload])).toEqual([
        [0n, false, '{"block":0}'],
        [1n, false, '{"block":1}'],
        [2n, false, '{"block":2}'],
        [1n, true, '{"block":1}'],
        [2n, true, '{"block":2}'],
      ]);
      expect(outbox.slice(3).map((d) => d.blockHash)).toEqual([chain[1]!.block.hash, chain[2]!.block.hash]);
      expect(outbox.slice(3).every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true);
    });

    test('traced internal transfers are enqueued with their traces and claimed in block order, after their block is traced', async (storage) => {
      const chain = withInternalTransactions(makeChain({ blocks: 6, txPerBlock: 3, addresses: pool }));
      const half = 3;
      const moved = chain.flatMap((b) => b.internalTransactions).filter((x) => x.value > 0n && x.error === null && x.to !== null && x.blockNumber >= chain[half]!.block.number);
      const watched = moved[0]!.to!;
      await storage.createWebhook(hook(HOOK_A, ALICE, { events: ['address_activity', 'block'], addresses: [watched] }), 10);
      await writeChain(storage, chain.map(withoutTraces));
      const matches: WebhookMatches = { blockHooks: [HOOK_A], addressHooks: new Map([[watched, [HOOK_A]]]), tokenHooks: new Map() };
      const expectedOf = (blocks: typeof chain) =>
        blocks.flatMap((b) => [...webhookOutbox(withoutTraces(b), matches), ...webhookTraceOutbox(tracesOf(b), matches.addressHooks)])
          .map(({ webhookId, event, blockNumber, blockHash, subject }) => ({ webhookId, event, blockNumber, blockHash, subject }));
      const now = Date.now() + 1_000;
      const first = chain[0]!.block.number;
      // Nothing is traced yet: the hook waits, unless nothing is traced behind the blocks.
      expect(await storage.claimWebhookDeliveries({ owner: 'me', now, leaseMs: 0, limit: 10, tracedThrough: first - 1n })).toEqual([]);
      expect(await storage.claimWebhookDeliveries({ owner: 'me', now, leaseMs: 0, limit: 10, tracedThrough: null })).toHaveLength(1);
      const drain = async (tracedThrough: bigint) => {
        const told: StoredWebhookDelivery[] = [];
        for (let d = await storage.claimWebhookDeliveries({ owner: 'me', now, leaseMs: 60_000, limit: 10, tracedThrough }); d.length > 0; d = await storage.claimWebhookDeliveries({ owner: 'me', now, leaseMs: 60_000, limit: 10, tracedThrough })) {
          expect(d).toHaveLength(1);
          await storage.setWebhookPayload(d[0]!.id, 'me', '{}');
          await storage.settleWebhookDelivery(d[0]!.id, 'me', { status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null, deliveredAt: now });
          told.push(d[0]!);
        }
        return told;
      };
      await storage.writeBlockTraces(chain.slice(0, half).map(tracesOf));
      expect(shape(await drain(chain[half - 1]!.block.number))).toEqual(expectedOf(chain.slice(0, half)));
      await storage.writeBlockTraces(chain.slice(half).map(tracesOf));
      const rest = expectedOf(chain.slice(half));
      expect(shape(await drain(chain.at(-1)!.block.number))).toEqual(rest);
      expect(rest.some((d) => d.subject.kind === 'internal_transaction' && d.blockNumber === moved[0]!.blockNumber)).toBe(true);
      // A rollback retracts the told traced transfers like the block's other deliveries, claimed in block order too.
      await storage.rollbackTo(chain[half - 1]!.block.number);
      expect(shape(await drain(chain[half - 1]!.block.number))).toEqual(rest);
      expect((await outboxOf(storage, HOOK_A)).filter((d) => d.removed)).toHaveLength(rest.length);
    });

    test('pruning deletes, in batches, deliveries done with and older than the cut: delivered, failed, of disabled webhooks', async (storage) => {
      const chain = makeChain({ blocks: 4, addresses: pool });
      await storage.createWebhook(hook(HOOK_A, ALICE, { events: ['block'] }), 10);
      await storage.createWebhook(hook(HOOK_B, BOB, { events: ['block'] }), 10);
      await writeChain(storage, chain);
      await storage.updateWebhook(HOOK_B, { active: false });
      const now = Date.now() + 1_000;
      // HOOK_A: block 0 delivered after the cut, block 1 delivered long before it, block 2 failed, block 3 pending.
      const outcomes = [
        { status: 'delivered', lastStatusCode: 200, nextAttemptAt: null, deliveredAt: now + 10_000 },
        { status: 'delivered', lastStatusCode: 200, nextAttemptAt: null, deliveredAt: 5 },
        { status: 'failed', lastStatusCode: 410, nextAttemptAt: null, deliveredAt: null },
      ] as const;
      const settled: string[] = [];
      for (const outcome of outcomes) {
        const [d] = await storage.claimWebhookDeliveries({ owner: 'me', now, leaseMs: 60_000, limit: 10 });
        await storage.settleWebhookDelivery(d!.id, 'me', { ...outcome, attempts: 1, lastError: null });
        settled.push(d!.id);
      }
      expect(await storage.pruneWebhookDeliveries(0, 10)).toBe(0);
      const batches: number[] = [];
      for (let n = 2; n === 2; batches.push(n)) n = await storage.pruneWebhookDeliveries(now + 5_000, 2);
      // Blocks 1 and 2 of HOOK_A and the four pending of the disabled HOOK_B.
      expect(batches).toEqual([2, 2, 2, 0]);
      const left = await outboxOf(storage, HOOK_A);
      expect(left.map((d) => [d.id === settled[0], d.status, d.blockNumber])).toEqual([[true, 'delivered', 0n], [false, 'pending', 3n]]);
      expect(await outboxOf(storage, HOOK_B)).toEqual([]);
      expect(await storage.countPendingWebhookDeliveries()).toBe(1);
      expect((await storage.claimWebhookDeliveries({ owner: 'me', now, leaseMs: 60_000, limit: 10 })).map((d) => d.blockNumber)).toEqual([3n]);
    });
  });
}
