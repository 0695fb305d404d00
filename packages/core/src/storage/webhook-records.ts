import type { Hex } from './records.js';

/**
 * Webhooks and their outbox, as storage keeps them. Ids are lowercase UUIDs; times are Unix
 * milliseconds. Not chain data, except that the outbox follows the blocks it was written with.
 */

/** What a webhook may be told of. */
export type WebhookEvent = 'address_activity' | 'token_transfer' | 'block';

/** A user's webhook: where to send, what of, and the secrets that sign it. */
export interface StoredWebhook {
  id: string;
  userId: string;
  url: string;
  /** Distinct, sorted. */
  events: WebhookEvent[];
  /** Watched addresses (canonical), distinct and sorted. */
  addresses: Hex[];
  /** Watched token contracts (canonical), distinct and sorted. */
  tokens: Hex[];
  description: string | null;
  /** The HMAC-SHA256 key deliveries are signed with. */
  secret: string;
  /** The key before the last rotation, still signing beside `secret` until `previousSecretExpiresAt`. */
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  /** `false` once disabled, by its owner or for failing (`disabledReason` says why). */
  active: boolean;
  disabledReason: string | null;
  /** When deliveries started failing without a success since; `null` while they succeed. */
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The fields an update of a webhook may change. */
export type WebhookChanges = Partial<
  Pick<StoredWebhook, 'url' | 'events' | 'addresses' | 'tokens' | 'description' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt' | 'active' | 'disabledReason' | 'failingSince' | 'updatedAt'>
>;

/** What a delivery tells of, by reference into the chain data written with it. */
export type WebhookSubject =
  | { kind: 'block' }
  | { kind: 'transaction'; transactionHash: Hex }
  | { kind: 'token_transfer'; transactionHash: Hex; logIndex: number; batchIndex: number }
  | { kind: 'internal_transaction'; transactionHash: Hex; traceIndex: number };

/** `pending` until sent with a 2xx (`delivered`) or given up (`failed`). */
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One entry of the outbox: one notice to one webhook, sent at least once. */
export interface StoredWebhookDelivery {
  id: string;
  webhookId: string;
  /** Order of writing across the whole outbox: a webhook's deliveries are sent in this order. */
  sequence: number;
  event: WebhookEvent;
  blockNumber: bigint;
  blockHash: Hex;
  subject: WebhookSubject;
  /** A notice that a reorg undid what an earlier delivery told. */
  removed: boolean;
  /**
   * The delivery's `data` as JSON, fixed before its first attempt so every retry sends the same
   * body; `null` until then.
   */
  payload: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: number;
  /** When the next attempt is due; `null` once delivered or failed. */
  nextAttemptAt: number | null;
  deliveredAt: number | null;
}

/** The outcome of an attempt, written by the lease holder. */
export interface WebhookAttemptOutcome {
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
}

/** A claim of due deliveries by one sender. */
export interface WebhookClaim {
  /** Who claims (one id per explorer instance). */
  owner: string;
  now: number;
  /** How long the claim holds: another sender may take a delivery whose lease ran out. */
  leaseMs: number;
  limit: number;
  /**
   * Set while the trace pipeline adds internal transfers behind the blocks: the trace cursor. A
   * webhook with `address_activity` then waits at its first delivery of a block above it (a
   * `removed` notice excepted) until that block is traced and its transfers are enqueued before
   * the next block's. `null` or absent (traces off, or the node cannot trace): nothing waits.
   */
  tracedThrough?: bigint | null;
}

/** A page of a webhook's deliveries, newest first. */
export interface WebhookDeliveriesQuery {
  webhookId: string;
  limit: number;
  /** Only those older (smaller `sequence`) than this. */
  beforeSequence?: number;
}
