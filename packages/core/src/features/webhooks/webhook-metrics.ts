import { Counter, Gauge, type Registry } from 'prom-client';
import type { WebhookStorage } from '../../storage/index.js';

/** Delivery figures: pending in the outbox (all instances), and sent, failed and retried attempts of this instance. */
export class WebhookMetrics {
  readonly #sent?: Counter;
  readonly #failed?: Counter;
  readonly #retried?: Counter;

  /** Without a registry (metrics off) it counts nothing. */
  constructor(registry: Registry | null, storage: Pick<WebhookStorage, 'countPendingWebhookDeliveries'>) {
    if (!registry) return;
    const registers = [registry];
    this.#sent = new Counter({ name: 'chainlens_webhook_deliveries_sent_total', help: 'Webhook deliveries answered with a 2xx', registers });
    this.#failed = new Counter({ name: 'chainlens_webhook_delivery_failures_total', help: 'Webhook delivery attempts that failed (no answer, or not a 2xx)', registers });
    this.#retried = new Counter({ name: 'chainlens_webhook_delivery_retries_total', help: 'Webhook delivery attempts after a failed one', registers });
    new Gauge({
      name: 'chainlens_webhook_deliveries_queued',
      help: 'Webhook deliveries pending in the outbox (every instance)',
      registers,
      async collect() {
        this.set(await storage.countPendingWebhookDeliveries());
      },
    });
  }

  sent(): void {
    this.#sent?.inc();
  }
  failed(): void {
    this.#failed?.inc();
  }
  retried(): void {
    this.#retried?.inc();
  }
}
