import { randomUUID } from 'node:crypto';
import { InvalidRequestError } from '../../errors/index.js';
import type { Hex, StoredWebhook, WebhookChanges, WebhookEvent, WebhookStorage } from '../../storage/index.js';
import type { WebhookConfig } from './webhook-config.js';
import { WebhookAddressLimitError, WebhookDeliveryNotFoundError, WebhookLimitError, WebhookNotFoundError } from './webhook-errors.js';
import { webhookMessage } from './webhook-message.js';
import { formatDelivery, formatWebhook, type WebhookDeliveryRecord, type WebhookRecord, type WebhookTestRecord, type WebhookWithSecretRecord } from './webhook-records.js';
import { sendWebhook, type SendOutcome } from './webhook-sender.js';
import { newWebhookSecret } from './signature.js';
import { resolveTarget, UnsafeTargetError } from './target-guard.js';

/** What a user asks for when creating a webhook (validated by the route). */
export interface WebhookRequest {
  url: string;
  events: WebhookEvent[];
  addresses?: Hex[];
  tokens?: Hex[];
  description?: string | null;
}

/** What an update may change; `active: true` re-enables a disabled webhook. */
export interface WebhookUpdate extends Partial<WebhookRequest> {
  active?: boolean;
}

/**
 * Users' webhooks: creation within the caps, targets checked against SSRF, secrets shown once and
 * rotated with an overlap, their deliveries listed and sent again, and a test delivery.
 */
export class WebhookService {
  constructor(
    private readonly storage: WebhookStorage,
    private readonly config: WebhookConfig,
    private readonly clock: () => number,
  ) {}

  /** Creates a webhook for `userId` and answers it with its secret (shown this once). */
  async create(userId: string, request: WebhookRequest): Promise<WebhookWithSecretRecord> {
    const addresses = this.#watched('addresses', request.addresses);
    const tokens = this.#watched('tokens', request.tokens);
    await this.#checkTarget(request.url);
    const now = this.clock();
    const hook: StoredWebhook = {
      id: randomUUID(),
      userId,
      url: request.url,
      events: [...new Set(request.events)].sort(),
      addresses,
      tokens,
      description: request.description ?? null,
      secret: newWebhookSecret(),
      previousSecret: null,
      previousSecretExpiresAt: null,
      active: true,
      disabledReason: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.storage.createWebhook(hook, this.config.maxPerUser))) throw new WebhookLimitError(this.config.maxPerUser);
    return { ...formatWebhook(hook), secret: hook.secret };
  }

  async list(userId: string): Promise<WebhookRecord[]> {
    return (await this.storage.listWebhooks(userId)).map(formatWebhook);
  }

  async get(userId: string, id: string): Promise<WebhookRecord> {
    return formatWebhook(await this.#own(userId, id));
  }

  async update(userId: string, id: string, update: WebhookUpdate): Promise<WebhookRecord> {
    const changes: WebhookChanges = { updatedAt: this.clock() };
    if (update.url !== undefined) {
      await this.#checkTarget(update.url);
      changes.url = update.url;
    }
    if (update.events !== undefined) changes.events = [...new Set(update.events)].sort();
    if (update.addresses !== undefined) changes.addresses = this.#watched('addresses', update.addresses);
    if (update.tokens !== undefined) changes.tokens = this.#watched('tokens', update.tokens);
    if (update.description !== undefined) changes.description = update.description;
    if (update.active === true) Object.assign(changes, { active: true, disabledReason: null, failingSince: null });
    if (update.active === false) Object.assign(changes, { active: false, disabledReason: 'disabled by its owner' });
    const updated = await this.storage.updateWebhook(id, changes, userId);
    if (!updated) throw new WebhookNotFoundError();
    return formatWebhook(updated);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.storage.deleteWebhook(id, userId))) throw new WebhookNotFoundError();
  }

  /** A new secret, answered once; the old one keeps signing beside it for `secretOverlapMs`. */
  async rotateSecret(userId: string, id: string): Promise<WebhookWithSecretRecord> {
    const hook = await this.#own(userId, id);
    const now = this.clock();
    const secret = newWebhookSecret();
    const updated = await this.storage.updateWebhook(id, { secret, previousSecret: hook.secret, previousSecretExpiresAt: now + this.config.secretOverlapMs, updatedAt: now }, userId);
    if (!updated) throw new WebhookNotFoundError();
    return { ...formatWebhook(updated), secret };
  }

  /** The webhook's deliveries, newest first; `before` is the `sequence` the previous page ended at. */
  async deliveries(userId: string, id: string, page: { limit: number; before?: number }): Promise<WebhookDeliveryRecord[]> {
    await this.#own(userId, id);
    return (await this.storage.listWebhookDeliveries({ webhookId: id, limit: page.limit, beforeSequence: page.before })).map(formatDelivery);
  }

  /** Sends a delivery again: pending, due now, with its id and body unchanged (in the webhook's order, its turn comes first). */
  async redeliver(userId: string, id: string, deliveryId: string): Promise<WebhookDeliveryRecord> {
    await this.#own(userId, id);
    const delivery = await this.storage.redeliverWebhookDelivery(id, deliveryId, this.clock());
    if (!delivery) throw new WebhookDeliveryNotFoundError();
    return formatDelivery(delivery);
  }

  /** Sends a signed `test` event to the webhook now, outside the outbox, and answers how it went. */
  async test(userId: string, id: string): Promise<WebhookTestRecord> {
    const hook = await this.#own(userId, id);
    const now = this.clock();
    const deliveryId = randomUUID();
    const message = webhookMessage(hook, { id: deliveryId, event: 'test', createdAt: now, data: { message: 'ChainLens test delivery' } }, now);
    const outcome = await attemptDelivery(hook.url, message, this.config);
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    return { deliveryId, ok, responseCode: outcome.statusCode, error: ok ? null : outcomeError(outcome) };
  }

  async #own(userId: string, id: string): Promise<StoredWebhook> {
    const hook = await this.storage.getWebhook(id, userId);
    if (!hook) throw new WebhookNotFoundError();
    return hook;
  }

  #watched(field: 'addresses' | 'tokens', addresses: Hex[] | undefined): Hex[] {
    const distinct = [...new Set(addresses ?? [])].sort();
    if (distinct.length > this.config.maxAddressesPerWebhook) throw new WebhookAddressLimitError(field, this.config.maxAddressesPerWebhook);
    return distinct;
  }

  async #checkTarget(url: string): Promise<void> {
    try {
      await resolveTarget(url, this.config.allowPrivateTargets);
    } catch (error) {
      if (error instanceof UnsafeTargetError) throw new InvalidRequestError('url', error.message);
      throw error;
    }
  }
}

/** One POST of `message` to `url`: its host resolved and checked again (DNS may have changed), then sent. */
export async function attemptDelivery(url: string, message: { body: string; headers: Record<string, string> }, config: WebhookConfig): Promise<SendOutcome> {
  try {
    const target = await resolveTarget(url, config.allowPrivateTargets);
    return await sendWebhook(target, message.body, message.headers, config.timeoutMs);
  } catch (error) {
    if (error instanceof UnsafeTargetError) return { statusCode: null, error: `target refused: ${error.message}` };
    throw error;
  }
}

/** An attempt's failure in words: the status and what the answer said (at most 1 KB), or why none came. */
export function outcomeError(outcome: SendOutcome): string {
  return outcome.statusCode === null ? outcome.error : `HTTP ${outcome.statusCode}${outcome.body ? `: ${outcome.body}` : ''}`;
}
