import { randomUUID } from 'node:crypto';
import {
  webhookBundleKeys,
  webhookOutbox,
  type BlockBundle,
  type Hex,
  type StoredWebhook,
  type StoredWebhookDelivery,
  type WebhookAttemptOutcome,
  type WebhookChanges,
  type WebhookClaim,
  type WebhookDeliveriesQuery,
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

/**
 * Webhooks and their outbox in memory. Every method runs synchronously to completion: the block
 * writes call {@link enqueue} and {@link rollback} inside their own synchronous step, so the
 * outbox changes with its blocks atomically. Records are copied both ways (they change in place).
 */
export class WebhookStore implements WebhookStorage {
  readonly #hooks = new Map<string, StoredWebhook>();
  /** Every delivery by id. */
  readonly #deliveries = new Map<string, DeliveryEntry>();
  /** Per webhook, its deliveries in sequence order. */
  readonly #byHook = new Map<string, DeliveryEntry[]>();
  #sequence = 0;

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
    entry.delivery = { ...entry.delivery, status: 'pending', nextAttemptAt: now, deliveredAt: null };
    return copyDelivery(entry.delivery);
  }

  async claimWebhookDeliveries(claim: WebhookClaim): Promise<StoredWebhookDelivery[]> {
    const heads: DeliveryEntry[] = [];
    for (const [id, entries] of this.#byHook) {
      if (!this.#hooks.get(id)!.active) continue;
      const head = entries.find((entry) => entry.delivery.status === 'pending');
      if (!head || head.delivery.nextAttemptAt! > claim.now) continue;
      if (head.leaseOwner !== null && head.leaseUntil > claim.now) continue;
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
    entry.leaseOwner = null;
    entry.leaseUntil = 0;
    return true;
  }

  async countPendingWebhookDeliveries(): Promise<number> {
    let pending = 0;
    for (const { delivery } of this.#deliveries.values()) if (delivery.status === 'pending') pending++;
    return pending;
  }

  /** Enqueues what `bundle` brings the active webhooks (see `WebhookStorage`); called with the block's write. */
  enqueue(bundle: BlockBundle, now: number): void {
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
    for (const entry of entries) {
      this.#add({ ...entry, id: randomUUID(), sequence: 0, removed: false, payload: null, status: 'pending', attempts: 0, lastStatusCode: null, lastError: null, createdAt: now, nextAttemptAt: now, deliveredAt: null });
    }
  }

  /** Takes the outbox back with the blocks above `blockNumber` (see `WebhookStorage`); called with the rollback. */
  rollback(blockNumber: bigint, now: number): void {
    const removals: StoredWebhookDelivery[] = [];
    for (const [id, entries] of this.#byHook) {
      const kept: DeliveryEntry[] = [];
      for (const entry of entries) {
        const { delivery } = entry;
        const undone = delivery.blockNumber > blockNumber && !delivery.removed && !entry.retracted;
        if (undone && delivery.payload === null) {
          this.#deliveries.delete(delivery.id);
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
  }
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
