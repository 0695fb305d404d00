import { z } from 'zod';
import type { StoredWebhook, StoredWebhookDelivery } from '../../storage/index.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const events = z.array(z.enum(['address_activity', 'token_transfer', 'block']));

/** A webhook as the API answers it (never its secret, except on creation and rotation). */
export const webhookRecordSchema = z.object({
  id: z.string(),
  url: z.string(),
  events,
  addresses: z.array(z.string()),
  tokens: z.array(z.string()),
  description: z.string().nullable(),
  active: z.boolean(),
  /** Why it was disabled (by its owner, a 410, or failing for too long); `null` while active. */
  disabledReason: z.string().nullable(),
  /** Since when deliveries fail without a success (ISO 8601), `null` while they succeed. */
  failingSince: z.string().nullable(),
  /** Until when the previous secret still signs beside the current one after a rotation. */
  previousSecretExpiresAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookRecord = z.infer<typeof webhookRecordSchema>;

/** A webhook with its signing secret: answered once, on creation and on rotation. */
export const webhookWithSecretSchema = webhookRecordSchema.extend({ secret: z.string() });
export type WebhookWithSecretRecord = z.infer<typeof webhookWithSecretSchema>;

/** A delivery as the API answers it. */
export const webhookDeliveryRecordSchema = z.object({
  id: z.string(),
  /** Its place in the outbox: `before` of the next page. */
  sequence: z.number().int(),
  event: events.element,
  blockNumber: z.string(),
  blockHash: z.string(),
  removed: z.boolean(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  /** The HTTP status of the last attempt; `null` before one, or when it got no answer. */
  lastResponseCode: z.number().int().nullable(),
  /** What went wrong last (at most 1 KB of the answer's body); `null` when nothing did. */
  lastError: z.string().nullable(),
  /** When the next attempt is due (ISO 8601), `null` once delivered or failed. */
  nextRetryAt: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDeliveryRecord = z.infer<typeof webhookDeliveryRecordSchema>;

/** The outcome of a test delivery, sent at once. */
export const webhookTestRecordSchema = z.object({
  deliveryId: z.string(),
  ok: z.boolean(),
  responseCode: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type WebhookTestRecord = z.infer<typeof webhookTestRecordSchema>;

export function formatWebhook(hook: StoredWebhook): WebhookRecord {
  return {
    id: hook.id,
    url: hook.url,
    events: hook.events,
    addresses: hook.addresses,
    tokens: hook.tokens,
    description: hook.description,
    active: hook.active,
    disabledReason: hook.disabledReason,
    failingSince: iso(hook.failingSince),
    previousSecretExpiresAt: hook.previousSecret === null ? null : iso(hook.previousSecretExpiresAt),
    createdAt: iso(hook.createdAt)!,
    updatedAt: iso(hook.updatedAt)!,
  };
}

export function formatDelivery(delivery: StoredWebhookDelivery): WebhookDeliveryRecord {
  return {
    id: delivery.id,
    sequence: delivery.sequence,
    event: delivery.event,
    blockNumber: delivery.blockNumber.toString(),
    blockHash: delivery.blockHash,
    removed: delivery.removed,
    status: delivery.status,
    attempts: delivery.attempts,
    lastResponseCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    nextRetryAt: iso(delivery.nextAttemptAt),
    createdAt: iso(delivery.createdAt)!,
    deliveredAt: iso(delivery.deliveredAt),
  };
}
