import type { Registry } from 'prom-client';
import type { ExplorerModule } from '../../modules/index.js';
import type { DomainServices } from '../../services/index.js';
import type { WebhookConfig } from './webhook-config.js';
import { createWebhooks } from './index.js';
import type { WebhookService } from './webhook-service.js';

/** What the webhooks module reads from the modules before it. */
export interface WebhooksModuleOptions {
  config: WebhookConfig;
  services: Pick<DomainServices, 'blocks' | 'transactions' | 'tokens'>;
  /** Where the delivery metrics go; `null` when metrics are off. */
  registry: Registry | null;
  /**
   * The trace cursor while the trace pipeline adds internal transfers behind the blocks, else
   * `null`: deliveries of blocks above it wait for them.
   */
  tracedThrough: () => Promise<bigint | null>;
  /** Whether this instance prunes the outbox: one of a cluster at a time (the one that indexes). */
  prunes: () => boolean;
}

/**
 * Users' webhooks as an explorer module: the routes under `/api/v1/account/webhooks`, and the
 * dispatcher that sends the outbox, started with the explorer where `webhooks.dispatch` is set.
 */
export const webhooksModule: ExplorerModule<WebhooksModuleOptions, WebhookService, never, 'WebhookStorage' | 'TransactionReader'> = {
  name: 'webhooks',
  register(app, options) {
    const { service, routes, dispatcher } = createWebhooks({ ...options, storage: app.writer, hub: app.hub, logger: app.logger.child({ module: 'webhooks' }), clock: app.clock });
    app.route(...routes);
    app.onStart(() => {
      if (options.config.dispatch) dispatcher.start();
    });
    app.onClose(() => dispatcher.stop());
    return service;
  },
};
