import type { StoredWebhook, WebhookEvent } from '../../storage/index.js';
import { signatureHeader } from './signature.js';

/** What one POST carries: the JSON body and the ChainLens headers that identify and sign it. */
export interface WebhookMessage {
  body: string;
  headers: Record<string, string>;
}

/**
 * The body `{id, webhookId, event, createdAt, data}` (with `data.removed`) and its headers,
 * signed at `now` with the webhook's secret and, while a rotation overlaps, its previous one.
 */
export function webhookMessage(
  hook: Pick<StoredWebhook, 'id' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  delivery: { id: string; event: WebhookEvent | 'test'; createdAt: number; data: Record<string, unknown> },
  now: number,
): WebhookMessage {
  const body = JSON.stringify({ id: delivery.id, webhookId: hook.id, event: delivery.event, createdAt: new Date(delivery.createdAt).toISOString(), data: delivery.data });
  const timestamp = Math.floor(now / 1000);
  const overlapping = hook.previousSecret !== null && hook.previousSecretExpiresAt !== null && hook.previousSecretExpiresAt > now;
  const secrets = overlapping ? [hook.secret, hook.previousSecret!] : [hook.secret];
  return {
    body,
    headers: {
      'chainlens-webhook-id': hook.id,
      'chainlens-delivery-id': delivery.id,
      'chainlens-timestamp': String(timestamp),
      'chainlens-signature': signatureHeader(secrets, timestamp, body),
    },
  };
}
