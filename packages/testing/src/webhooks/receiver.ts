import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got, with whether its signature held. */
export interface ReceivedDelivery {
  webhookId: string;
  deliveryId: string;
  timestamp: number;
  /** The `ChainLens-Signature` header as sent. */
  signature: string;
  signatureValid: boolean;
  /** The status the receiver answered. */
  answered: number;
  body: { id: string; webhookId: string; event: string; createdAt: string; data: any };
  raw: string;
  receivedAt: number;
}

/** A local webhook target that checks every signature against the secrets it was told. */
export interface WebhookReceiver {
  url: string;
  /** Every POST, in arrival order. */
  received: ReceivedDelivery[];
  /** Deliveries answered with a 2xx, in arrival order. */
  accepted(): ReceivedDelivery[];
  /** Secrets to check the given webhook's signatures with (any one matching is enough). */
  trust(webhookId: string, ...secrets: string[]): void;
  /** What to answer next (default 200 to everything). */
  answer: (delivery: Omit<ReceivedDelivery, 'answered'>) => number;
  /** How long to wait before answering (ms). */
  delayMs: number;
  close(): Promise<void>;
}

/** Whether `header` (`v1=<hex> v1=<hex>`) carries HMAC-SHA256(secret, timestamp.body) of one of `secrets`. */
export function signatureHolds(header: string, timestamp: string, raw: string, secrets: readonly string[]): boolean {
  const given = header.split(' ').flatMap((part) => (part.startsWith('v1=') ? [Buffer.from(part.slice(3), 'hex')] : []));
  return secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest();
    return given.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
  });
}

/** Starts a receiver on a free local port. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const secrets = new Map<string, string[]>();
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    accepted: () => receiver.received.filter((delivery) => delivery.answered >= 200 && delivery.answered < 300),
    trust: (webhookId, ...more) => secrets.set(webhookId, [...(secrets.get(webhookId) ?? []), ...more]),
    answer: () => 200,
    delayMs: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(request.headers[name] ?? '');
      const webhookId = header('chainlens-webhook-id');
      const delivery = {
        webhookId,
        deliveryId: header('chainlens-delivery-id'),
        timestamp: Number(header('chainlens-timestamp')),
        signature: header('chainlens-signature'),
        signatureValid: signatureHolds(header('chainlens-signature'), header('chainlens-timestamp'), raw, secrets.get(webhookId) ?? []),
        body: JSON.parse(raw),
        raw,
        receivedAt: Date.now(),
      };
      const answered = delivery.signatureValid ? receiver.answer(delivery) : 401;
      const reply = () => {
        receiver.received.push({ ...delivery, answered });
        response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'x'.repeat(5_000));
      };
      if (receiver.delayMs > 0) setTimeout(reply, receiver.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
