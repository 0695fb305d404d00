import type { ResolvedConfig } from '../config.js';
import type { Indexer } from '../indexer/indexer.js';
import { ExplorerMetrics, metricsRoutes } from '../metrics/index.js';
import type { ExplorerModule, Signal } from '../modules/index.js';
import type { Services } from '../explorer-services.js';
import type { SocketGateway } from '../sockets/gateway.js';

/** What the metrics module reads from the modules before it. */
export interface MetricsModuleOptions {
  config: Pick<ResolvedConfig, 'metrics'>;
  indexer: Indexer;
  services: Pick<Services, 'health'>;
  sockets: SocketGateway;
  /** Requests refused with 429. */
  rateLimited: Signal<void>;
}

/** The Prometheus metrics behind `GET /metrics`: requests, rate-limit refusals, indexing, sockets; `null` when `metrics.enabled` is false. */
export const metricsModule: ExplorerModule<MetricsModuleOptions, ExplorerMetrics | null, 'ChainCursors'> = {
  name: 'metrics',
  register(app, { config, indexer, services: { health }, sockets, rateLimited }) {
    if (!config.metrics.enabled) return null;
    const metrics = new ExplorerMetrics({ indexer, storage: app.storage, hub: app.hub, tracedBlock: () => health.tracedBlock(), sockets: () => sockets.stats() });
    app.route(...metricsRoutes(metrics, config.metrics.scope));
    app.observeResponses((outcome) => metrics.observeRequest(outcome));
    rateLimited.listen(() => metrics.rateLimited());
    return metrics;
  },
};
