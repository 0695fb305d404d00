import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { EventHub } from '../../events/index.js';
import type { Route } from '../../http/index.js';
import type { DomainServices } from '../../services/index.js';
import type { TransactionReader, WebhookStorage } from '../../storage/index.js';
import type { WebhookConfig } from './webhook-config.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { WebhookPayloads } from './webhook-payloads.js';
import { webhookRoutes } from './webhook-routes.js';
import { WebhookService } from './webhook-service.js';

export { webhookConfigSchema, type WebhookConfig } from './webhook-config.js';
export { isPublicAddress } from './target-guard.js';
export { webhookSignature } from './signature.js';
export type { WebhookDeliveryRecord, WebhookRecord, WebhookTestRecord, WebhookWithSecretRecord } from './webhook-records.js';
export { WebhookDispatcher } from './webhook-dispatcher.js';
export { WebhookService, type WebhookRequest, type WebhookUpdate } from './webhook-service.js';

/** What {@link createWebhooks} needs from the explorer. */
export interface WebhookFeatureOptions {
  /** The storage that reads its own writes (the primary). */
  storage: WebhookStorage & TransactionReader;
  services: Pick<DomainServices, 'blocks' | 'transactions' | 'tokens'>;
  hub: EventHub;
  config: WebhookConfig;
  logger: Logger;
  clock: () => number;
  /** Where the delivery metrics go; `null` when metrics are off. */
  registry: Registry | null;
  /**
   * The trace cursor while the trace pipeline adds internal transfers behind the blocks, else
   * `null` (traces off, or the node cannot trace): deliveries of blocks above it wait for them.
   */
  tracedThrough: () => Promise<bigint | null>;
  /** Whether this instance prunes the outbox: one of a cluster at a time (the one that indexes). */
  prunes: () => boolean;
}

/** The webhooks feature: its service, its routes, and the dispatcher that sends the outbox (woken by every block). */
export function createWebhooks(options: WebhookFeatureOptions): { service: WebhookService; routes: Route[]; dispatcher: WebhookDispatcher } {
  const { storage, config, clock } = options;
  const service = new WebhookService(storage, config, clock);
  const metrics = new WebhookMetrics(options.registry, storage);
  const dispatcher = new WebhookDispatcher(storage, new WebhookPayloads(options.services, storage), config, metrics, options.logger, clock, options.tracedThrough, options.prunes);
  options.hub.on('block', () => dispatcher.poke());
  options.hub.on('reorg', () => dispatcher.poke());
  // Deliveries waiting for their block's traces may go now.
  options.hub.on('traced', () => dispatcher.poke());
  return { service, routes: webhookRoutes(service), dispatcher };
}
