import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { StoredWebhook, StoredWebhookDelivery, WebhookAttemptOutcome, WebhookStorage } from '../../storage/index.js';
import { retryDelay } from './backoff.js';
import type { WebhookConfig } from './webhook-config.js';
import { webhookMessage } from './webhook-message.js';
import type { WebhookMetrics } from './webhook-metrics.js';
import type { WebhookPayloads } from './webhook-payloads.js';
import { attemptDelivery, outcomeError } from './webhook-service.js';

/**
 * Sends the outbox: claims due deliveries (each webhook's oldest pending one, leased to this
 * instance so no other sends it meanwhile), fixes each one's payload before its first attempt,
 * POSTs it signed, and records the outcome. A 2xx ends a delivery; a 410 disables its webhook;
 * any other outcome is retried with exponential backoff and jitter, until the webhook has failed
 * for `disableAfterMs` and is disabled with its reason. A webhook's next delivery waits for the
 * one before it, so each webhook is told in order.
 */
export class WebhookDispatcher {
  /** This instance's name on its leases. */
  readonly owner = `dispatcher-${randomUUID()}`;
  #running = false;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #poked = false;
  /** When this instance last pruned the outbox (0: not yet). */
  #prunedAt = 0;

  constructor(
    private readonly storage: WebhookStorage,
    private readonly payloads: WebhookPayloads,
    private readonly config: WebhookConfig,
    private readonly metrics: WebhookMetrics,
    private readonly logger: Logger,
    private readonly clock: () => number,
    /** See `WebhookClaim.tracedThrough`. */
    private readonly tracedThrough: () => Promise<bigint | null>,
    /** Whether this instance is the one that prunes the outbox (the cluster's indexing leaseholder). */
    private readonly prunes: () => boolean,
  ) {}

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Looks at the outbox now rather than at the next poll (a block was written). */
  poke(): void {
    this.#poked = true;
    this.#wake?.();
  }

  /** Stops claiming and waits for the attempts in flight. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    while (this.#running) {
      this.#poked = false;
      await this.#pruneWhenDue();
      let claimed: StoredWebhookDelivery[] = [];
      const room = this.config.concurrency - inFlight.size;
      try {
        // A webhook in flight has its head leased, so it is never claimed twice.
        if (room > 0) {
          const tracedThrough = await this.tracedThrough();
          claimed = await this.storage.claimWebhookDeliveries({ owner: this.owner, now: this.clock(), leaseMs: this.config.leaseMs, limit: room, tracedThrough });
        }
      } catch (error) {
        this.logger.warn({ err: error }, 'webhook deliveries could not be claimed; trying again');
      }
      for (const delivery of claimed) {
        const attempt: Promise<void> = this.#deliver(delivery)
          .catch((error: unknown) => this.logger.warn({ err: error, delivery: delivery.id }, 'a webhook attempt could not be recorded; its lease runs out and it is sent again'))
          .finally(() => {
            inFlight.delete(attempt);
            // A webhook's next delivery may be due now.
            this.poke();
          });
        inFlight.add(attempt);
      }
      if (claimed.length === 0 && !this.#poked && this.#running) await this.#sleep(this.config.pollIntervalMs);
    }
    await Promise.all(inFlight);
  }

  /** Deletes, in batches, deliveries past `retentionMs`, at most every `pruneIntervalMs`, on one instance. */
  async #pruneWhenDue(): Promise<void> {
    const now = this.clock();
    if (now - this.#prunedAt < this.config.pruneIntervalMs || !this.prunes()) return;
    this.#prunedAt = now;
    try {
      let deleted = 0;
      for (let batch = this.config.pruneBatch; batch === this.config.pruneBatch && this.#running; ) {
        batch = await this.storage.pruneWebhookDeliveries(now - this.config.retentionMs, this.config.pruneBatch);
        deleted += batch;
      }
      if (deleted > 0) this.logger.info({ deleted }, 'webhook deliveries past their retention deleted');
    } catch (error) {
      this.logger.warn({ err: error }, 'webhook deliveries past their retention could not be deleted; trying again at the next interval');
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = null;
        done();
      };
    });
  }

  async #deliver(delivery: StoredWebhookDelivery): Promise<void> {
    const hook = await this.storage.getWebhook(delivery.webhookId);
    if (!hook) return;
    let payload = delivery.payload;
    if (payload === null) {
      payload = await this.payloads.of(delivery);
      // Not readable (a replica behind, or a reorg racing this claim): try again shortly, no attempt spent.
      if (payload === null) return void (await this.#settle(delivery, { ...unchanged(delivery), nextAttemptAt: this.clock() + this.config.retryBaseMs, lastError: 'record not readable yet' }));
      if (!(await this.storage.setWebhookPayload(delivery.id, this.owner, payload))) return;
    }
    if (delivery.attempts > 0) this.metrics.retried();
    const now = this.clock();
    const message = webhookMessage(hook, { id: delivery.id, event: delivery.event, createdAt: delivery.createdAt, data: { ...(JSON.parse(payload) as object), removed: delivery.removed } }, now);
    const outcome = await attemptDelivery(hook.url, message, this.config);
    const attempts = delivery.attempts + 1;
    const done = this.clock();
    if (outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300) {
      this.metrics.sent();
      await this.#settle(delivery, { status: 'delivered', attempts, lastStatusCode: outcome.statusCode, lastError: null, nextAttemptAt: null, deliveredAt: done });
      if (hook.failingSince !== null) await this.storage.updateWebhook(hook.id, { failingSince: null });
      return;
    }
    this.metrics.failed();
    const lastError = outcomeError(outcome);
    const failed: WebhookAttemptOutcome = { status: 'failed', attempts, lastStatusCode: outcome.statusCode, lastError, nextAttemptAt: null, deliveredAt: null };
    if (outcome.statusCode === 410) {
      await this.#settle(delivery, failed);
      return this.#disable(hook, 'the target answered 410 Gone');
    }
    const failingSince = hook.failingSince ?? now;
    if (done - failingSince >= this.config.disableAfterMs) {
      await this.#settle(delivery, failed);
      return this.#disable(hook, `failing since ${new Date(failingSince).toISOString()}; last: ${lastError}`);
    }
    const nextAttemptAt = done + retryDelay(attempts, this.config.retryBaseMs, this.config.retryMaxMs);
    await this.#settle(delivery, { ...failed, status: 'pending', nextAttemptAt });
    if (hook.failingSince === null) await this.storage.updateWebhook(hook.id, { failingSince });
  }

  async #settle(delivery: StoredWebhookDelivery, outcome: WebhookAttemptOutcome): Promise<void> {
    if (!(await this.storage.settleWebhookDelivery(delivery.id, this.owner, outcome))) {
      this.logger.warn({ delivery: delivery.id }, 'a webhook delivery lease ran out before its attempt was recorded; it may be sent again');
    }
  }

  async #disable(hook: StoredWebhook, reason: string): Promise<void> {
    this.logger.info({ webhook: hook.id, reason }, 'webhook disabled');
    await this.storage.updateWebhook(hook.id, { active: false, disabledReason: reason, updatedAt: this.clock() });
  }
}

function unchanged(delivery: StoredWebhookDelivery): WebhookAttemptOutcome {
  const { status, attempts, lastStatusCode, lastError, nextAttemptAt, deliveredAt } = delivery;
  return { status, attempts, lastStatusCode, lastError, nextAttemptAt, deliveredAt };
}
