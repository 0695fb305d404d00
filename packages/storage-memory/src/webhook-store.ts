import { randomUUID } from 'node:crypto';
import {
  webhookBundleKeys,
  webhookOutbox,
  webhookTraceKeys,
  webhookTraceOutbox,
  type BlockBundle,
  type BlockTraces,
  type Hex,
  type StoredWebhook,
  type StoredWebhookDelivery,
  type WebhookAttemptOutcome,
  type WebhookChanges,
  type WebhookClaim,
  type WebhookDeliveriesQuery,
  type WebhookOutboxEntry,
  type WebhookStorage,
} from '@chainlens/core';

/** A delivery with the lease that only this store sees. */
interface DeliveryEntry {
  delivery: StoredWebhookDelivery;
  /** Its `removed: true` notice is enqueued: a later reorg never repeats it. */
  retracted: boolean;
  leaseOwner: string | null;
  leaseUntil: number;
}

/** What the chain writes tell the webhook outbox, inside their own synchronous step. */
export interface WebhookOutboxHooks {
  /** Enqueues what `bundle` brings the active webhooks (see `WebhookStorage`); called with the block's write. */
  enqueue(bundle: BlockBundle, now: number): void;
  /** Enqueues the internal transfers of `traces` the active webhooks watch; called with the trace write. */
  enqueueTraces(traces: readonly BlockTraces[], now: number): void;
  /** Takes the outbox back with the blocks above `blockNumber`; called with the rollback. */
  rollback(blockNumber: bigint, now: number): void;
}

/**
 * Webhooks and their outbox in memory. Every method runs synchronously to completion: the block
 * writes call its {@link outbox} hooks inside their own synchronous step, so the outbox changes
 * with its blocks atomically. Records are copied both ways (they change in place).
 */
export class WebhookStore implements WebhookStorage {
  readonly #hooks = new Map<string, StoredWebhook>();
  /** Every delivery by id. */
  readonly #deliveries = new Map<string, DeliveryEntry>();
  /** Per webhook, its deliveries in sequence order. */
  readonly #byHook = new Map<string, DeliveryEntry[]>();
  /**
   * Per webhook with pending deliveries, those in claim order (block number, then sequence): a
   * claim looks at each one's head only, so it costs what is pending, not the outbox's history.
   */
  readonly #pending = new Map<string, DeliveryEntry[]>();
  #sequence = 0;
  /** Kept apart from the `WebhookStorage` methods: only the chain writes call them. */
  readonly outbox: WebhookOutboxHooks = {
    enqueue: (bundle, now) => this.#enqueue(bundle, now),
    enqueueTraces: (traces, now) => this.#enqueueTraces(traces, now),
    rollback: (blockNumber, now) => this.#rollback(blockNumber, now),
  };

  async createWebhook(webhook: StoredWebhook, maxPerUser: number): Promise<boolean> {
    if (this.#hooks.has(webhook.id)) throw new Error(`createWebhook: webhook ${webhook.id} exists`);
    let owned = 0;
    for (const hook of this.#hooks.values()) if (hook.userId === webhook.userId) owned++;
    if (owned >= maxPerUser) return false;
    this.#hooks.set(webhook.id, copyHook(webhook));
    this.#byHook.set(webhook.id, []);
    return true;
  }

  async getWebhook(id: string, ownerId?: string): Promise<StoredWebhook | null> {
    const hook = this.#hooks.get(id);
    return hook && (ownerId === undefined || hook.userId === ownerId) ? copyHook(hook) : null;
  }

  async listWebhooks(userId: string): Promise<StoredWebhook[]> {
    return [...this.#hooks.values()]
      .filter((hook) => hook.userId === userId)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .map(copyHook);
  }

  async updateWebhook(id: string, changes: WebhookChanges, ownerId?: string): Promise<StoredWebhook | null> {
    const hook = this.#hooks.get(id);
    if (!hook || (ownerId !== undefined && hook.userId !== ownerId)) return null;
    const updated = copyHook({ ...hook, ...definedOf(changes) });
    this.#hooks.set(id, updated);
    return copyHook(updated);
  }

  async deleteWebhook(id: string, ownerId: string): Promise<boolean> {
    const hook = this.#hooks.get(id);
    if (!hook || hook.userId !== ownerId) return false;
    this.#hooks.delete(id);
    for (const entry of this.#byHook.get(id) ?? []) this.#deliveries.delete(entry.delivery.id);
    this.#byHook.delete(id);
    this.#pending.delete(id);
    return true;
  }

  async listWebhookDeliveries(query: WebhookDeliveriesQuery): Promise<StoredWebhookDelivery[]> {
    const entries = this.#byHook.get(query.webhookId) ?? [];
    const found: StoredWebhookDelivery[] = [];
    for (let i = entries.length - 1; i >= 0 && found.length < query.limit; i--) {
      const { delivery } = entries[i]!;
      if (query.beforeSequence === undefined || delivery.sequence < query.beforeSequence) found.push(copyDelivery(delivery));
    }
    return found;
  }

  async getWebhookDelivery(webhookId: string, id: string): Promise<StoredWebhookDelivery | null> {
    const entry = this.#deliveries.get(id);
    return entry && entry.delivery.webhookId === webhookId ? copyDelivery(entry.delivery) : null;
  }

  async redeliverWebhookDelivery(webhookId: string, id: string, now: number): Promise<StoredWebhookDelivery | null> {
    const entry = this.#deliveries.get(id);
    if (!entry || entry.delivery.webhookId !== webhookId) return null;
    if (entry.delivery.status !== 'pending') this.#addPending(entry);
    entry.delivery = { ...entry.delivery, status: 'pending', nextAttemptAt: now, deliveredAt: null };
    return copyDelivery(entry.delivery);
  }

  async claimWebhookDeliveries(claim: WebhookClaim): Promise<StoredWebhookDelivery[]> {
    const heads: DeliveryEntry[] = [];
    const tracedThrough = claim.tracedThrough ?? null;
    for (const [id, entries] of this.#pending) {
      const hook = this.#hooks.get(id)!;
      if (!hook.active) continue;
      const head = entries[0]!;
      const { delivery } = head;
      if (delivery.nextAttemptAt! > claim.now) continue;
      if (head.leaseOwner !== null && head.leaseUntil > claim.now) continue;
      // Its block's internal transfers are still to come, and go first.
      if (tracedThrough !== null && !delivery.removed && delivery.blockNumber > tracedThrough && hook.events.includes('address_activity')) continue;
      heads.push(head);
    }
    heads.sort((a, b) => a.delivery.sequence - b.delivery.sequence);
    return heads.slice(0, claim.limit).map((entry) => {
      entry.leaseOwner = claim.owner;
      entry.leaseUntil = claim.now + claim.leaseMs;
      return copyDelivery(entry.delivery);
    });
  }

  async setWebhookPayload(id: string, owner: string, payload: string): Promise<boolean> {
    const entry = this.#deliveries.get(id);
    if (!entry || entry.leaseOwner !== owner || entry.delivery.payload !== null) return false;
    entry.delivery = { ...entry.delivery, payload };
    return true;
  }

  async settleWebhookDelivery(id: string, owner: string, outcome: WebhookAttemptOutcome): Promise<boolean> {
    const entry = this.#deliveries.get(id);
    if (!entry || entry.leaseOwner !== owner) return false;
    entry.delivery = { ...entry.delivery, ...outcome };
    if (outcome.status !== 'pending') this.#dropPending(entry);
    entry.leaseOwner = null;
    entry.leaseUntil = 0;
    return true;
  }

  async countPendingWebhookDeliveries(): Promise<number> {
    let pending = 0;
    for (const entries of this.#pending.values()) pending += entries.length;
    return pending;
  }

  async pruneWebhookDeliveries(before: number, limit: number): Promise<number> {
    let deleted = 0;
    for (const [id, entries] of this.#byHook) {
      if (deleted === limit) break;
      const active = this.#hooks.get(id)!.active;
      const kept = entries.filter(({ delivery }) => {
        const { status, deliveredAt, createdAt } = delivery;
        const old = status === 'delivered' ? deliveredAt! < before : createdAt < before && (status === 'failed' || !active);
        if (!old || deleted === limit) return true;
        deleted++;
        this.#deliveries.delete(delivery.id);
        return false;
      });
      if (kept.length === entries.length) continue;
      this.#byHook.set(id, kept);
      this.#pending.delete(id);
      const pending = kept.filter((entry) => entry.delivery.status === 'pending').sort(claimOrder);
      if (pending.length > 0) this.#pending.set(id, pending);
    }
    return deleted;
  }

  #enqueue(bundle: BlockBundle, now: number): void {
    if (this.#hooks.size === 0) return;
    const active = [...this.#hooks.values()].filter((hook) => hook.active);
    if (active.length === 0) return;
    const { addresses, tokens } = webhookBundleKeys(bundle);
    const watchers = (keys: Hex[], event: StoredWebhook['events'][number], of: (hook: StoredWebhook) => Hex[]) => {
      const wanted = new Set(keys);
      const found = new Map<Hex, string[]>();
      for (const hook of active) {
        if (!hook.events.includes(event)) continue;
        for (const key of of(hook)) if (wanted.has(key)) found.set(key, [...(found.get(key) ?? []), hook.id]);
      }
      return found;
    };
    const entries = webhookOutbox(bundle, {
      blockHooks: active.filter((hook) => hook.events.includes('block')).map((hook) => hook.id),
      addressHooks: watchers(addresses, 'address_activity', (hook) => hook.addresses),
      tokenHooks: watchers(tokens, 'token_transfer', (hook) => hook.tokens),
    });
    this.#enqueueEntries(entries, now);
  }

  #enqueueTraces(traces: readonly BlockTraces[], now: number): void {
    const addresses = new Set(webhookTraceKeys(traces));
    if (addresses.size === 0) return;
    const addressHooks = new Map<Hex, string[]>();
    for (const hook of this.#hooks.values()) {
      if (!hook.active || !hook.events.includes('address_activity')) continue;
      for (const address of hook.addresses) if (addresses.has(address)) addressHooks.set(address, [...(addressHooks.get(address) ?? []), hook.id]);
    }
    this.#enqueueEntries(traces.flatMap((entry) => webhookTraceOutbox(entry, addressHooks)), now);
  }

  #enqueueEntries(entries: readonly WebhookOutboxEntry[], now: number): void {
    for (const entry of entries) {
      this.#add({ ...entry, id: randomUUID(), sequence: 0, removed: false, payload: null, status: 'pending', attempts: 0, lastStatusCode: null, lastError: null, createdAt: now, nextAttemptAt: now, deliveredAt: null });
    }
  }

  #rollback(blockNumber: bigint, now: number): void {
    const removals: StoredWebhookDelivery[] = [];
    for (const [id, entries] of this.#byHook) {
      const kept: DeliveryEntry[] = [];
      for (const entry of entries) {
        const { delivery } = entry;
        const undone = delivery.blockNumber > blockNumber && !delivery.removed && !entry.retracted;
        if (undone && delivery.payload === null) {
          this.#deliveries.delete(delivery.id);
          if (delivery.status === 'pending') this.#dropPending(entry);
          continue;
        }
        kept.push(entry);
        if (undone) {
          entry.retracted = true;
          removals.push({ ...delivery, id: randomUUID(), removed: true, status: 'pending', attempts: 0, lastStatusCode: null, lastError: null, createdAt: now, nextAttemptAt: now, deliveredAt: null });
        }
      }
      this.#byHook.set(id, kept);
    }
    for (const removal of removals) this.#add(removal);
  }

  #add(delivery: StoredWebhookDelivery): void {
    const entry: DeliveryEntry = { delivery: { ...delivery, sequence: ++this.#sequence }, retracted: false, leaseOwner: null, leaseUntil: 0 };
    this.#deliveries.set(delivery.id, entry);
    this.#byHook.get(delivery.webhookId)!.push(entry);
    this.#addPending(entry);
  }

  /** Puts a delivery that became pending in its webhook's claim order. */
  #addPending(entry: DeliveryEntry): void {
    const { webhookId } = entry.delivery;
    const entries = this.#pending.get(webhookId) ?? [];
    if (entries.length === 0) this.#pending.set(webhookId, entries);
    // Mostly appended (new blocks); a traced block's transfers or a redelivery go further in.
    let at = entries.length;
    while (at > 0 && claimOrder(entries[at - 1]!, entry) > 0) at--;
    entries.splice(at, 0, entry);
  }

  /** Takes a delivery that is no longer pending out of the claim order. */
  #dropPending(entry: DeliveryEntry): void {
    const { webhookId } = entry.delivery;
    const entries = this.#pending.get(webhookId);
    const at = entries?.indexOf(entry) ?? -1;
    if (at < 0) return;
    entries!.splice(at, 1);
    if (entries!.length === 0) this.#pending.delete(webhookId);
  }
}

/** Block number, then sequence: the order a webhook's deliveries are claimed in. */
function claimOrder(a: DeliveryEntry, b: DeliveryEntry): number {
  const { delivery: x } = a;
  const { delivery: y } = b;
  return x.blockNumber === y.blockNumber ? x.sequence - y.sequence : x.blockNumber < y.blockNumber ? -1 : 1;
}

function copyHook(hook: StoredWebhook): StoredWebhook {
  return { ...hook, events: [...hook.events], addresses: [...hook.addresses], tokens: [...hook.tokens] };
}

function copyDelivery(delivery: StoredWebhookDelivery): StoredWebhookDelivery {
  return { ...delivery, subject: { ...delivery.subject } };
}

/** `changes` without its `undefined` fields (absent means unchanged). */
function definedOf<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}
