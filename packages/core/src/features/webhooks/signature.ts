import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: 32 random bytes, base64url, with a prefix that tells it apart. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `hex(HMAC-SHA256(secret, timestamp + "." + body))`: what a receiver recomputes to verify a delivery. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * The `ChainLens-Signature` header: `v1=<hex>` per secret, space-separated (two during a
 * rotation, the new secret's first).
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return secrets.map((secret) => `v1=${webhookSignature(secret, timestamp, body)}`).join(' ');
}
