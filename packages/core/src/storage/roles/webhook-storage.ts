import type { StoredWebhook, StoredWebhookDelivery, WebhookAttemptOutcome, WebhookChanges, WebhookClaim, WebhookDeliveriesQuery } from '../webhook-records.js';

/**
 * The webhook role of {@link Storage}: users' webhooks and the outbox of their deliveries.
 *
 * The outbox is written by the block writes themselves: `writeBlock`/`writeBlocks` MUST enqueue,
 * in the same atomic write as each block, the deliveries `webhookOutbox` gives for it against the
 * webhooks active at that moment (each a `pending` delivery due at once, `attempts` 0, `payload`
 * `null`, a `sequence` above every stored one, in `webhookOutbox`'s order). `rollbackTo` MUST, in
 * its atomic write, drop the deliveries of removed blocks whose `payload` is still `null` (never
 * attempted: nobody was told) and enqueue, for each one of them with a payload that is not itself
 * a removal, a copy with `removed: true` (new id and sequence, same event, block, subject and
 * payload, `pending`, due at once). Webhooks are not chain data: `rollbackTo` leaves them alone.
 * `writeBlockTraces` MUST likewise enqueue, in its atomic write, what `webhookTraceOutbox` gives
 * for each traced block against the active webhooks (its internal transfers), block by block; a
 * rollback treats those deliveries as the block's others.
 */
export interface WebhookStorage {
  /**
   * Stores a new webhook and resolves `true`; only while its owner holds fewer than `maxPerUser`
   * webhooks, else resolves `false`, writing nothing. Concurrent calls for one owner MUST NOT
   * together pass the cap.
   */
  createWebhook(webhook: StoredWebhook, maxPerUser: number): Promise<boolean>;
  /** The webhook, or `null`; with `ownerId`, only when it belongs to that user. */
  getWebhook(id: string, ownerId?: string): Promise<StoredWebhook | null>;
  /** Every webhook of `userId`, newest first (`createdAt`, then `id`, descending). */
  listWebhooks(userId: string): Promise<StoredWebhook[]>;
  /**
   * Applies `changes` to webhook `id`; with `ownerId`, only when it belongs to that user.
   * Resolves the updated webhook, or `null` (nothing written) when none matches. Later block
   * writes match against the changed webhook.
   */
  updateWebhook(id: string, changes: WebhookChanges, ownerId?: string): Promise<StoredWebhook | null>;
  /** Removes the webhook of `ownerId` with all its deliveries; resolves whether there was one. */
  deleteWebhook(id: string, ownerId: string): Promise<boolean>;

  /** A page of the webhook's deliveries, newest (highest `sequence`) first. */
  listWebhookDeliveries(query: WebhookDeliveriesQuery): Promise<StoredWebhookDelivery[]>;
  /** The delivery `id` of webhook `webhookId`, else `null`. */
  getWebhookDelivery(webhookId: string, id: string): Promise<StoredWebhookDelivery | null>;
  /**
   * Makes a delivery `pending` again, due at `now`, keeping its id, sequence, payload and
   * attempts; resolves it, or `null` for an unknown one.
   */
  redeliverWebhookDelivery(webhookId: string, id: string, now: number): Promise<StoredWebhookDelivery | null>;
  /**
   * Leases due deliveries to `claim.owner` until `now + leaseMs`: per active webhook at most one,
   * its pending delivery first in (`blockNumber`, `sequence`) order (so a traced block's internal
   * transfers, enqueued later, still precede the next block's deliveries), and only when that one
   * is due (`nextAttemptAt` at or before `now`), not leased to anyone (a lease that ran out counts
   * as none) and not waiting for its block's traces (see `WebhookClaim.tracedThrough`). At most
   * `limit` of them, by `sequence`. Concurrent claims (from any instance on this storage) MUST
   * NOT both get one delivery, so a webhook's deliveries are sent one at a time, in order.
   */
  claimWebhookDeliveries(claim: WebhookClaim): Promise<StoredWebhookDelivery[]>;
  /**
   * Fixes the payload of a delivery leased to `owner` whose payload is `null`; resolves whether
   * it did (`false` when the lease was lost or the delivery removed).
   */
  setWebhookPayload(id: string, owner: string, payload: string): Promise<boolean>;
  /**
   * Records an attempt's outcome on a delivery leased to `owner` and ends the lease; resolves
   * whether it did (`false`, nothing written, when the lease was lost).
   */
  settleWebhookDelivery(id: string, owner: string, outcome: WebhookAttemptOutcome): Promise<boolean>;
  /**
   * Deletes at most `limit` deliveries that are done with and older than `before`: delivered ones
   * delivered before it, failed ones and pending ones of disabled webhooks created before it.
   * Resolves how many it deleted (fewer than `limit`: none such is left).
   */
  pruneWebhookDeliveries(before: number, limit: number): Promise<number>;
  /** How many deliveries are pending, over every webhook. */
  countPendingWebhookDeliveries(): Promise<number>;
}
