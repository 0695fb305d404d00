import { pino, type Logger } from 'pino';
import { createChainClient, type ChainClient } from './chain/chain-client.js';
import type { ExplorerChannels } from './channels/index.js';
import { resolveConfig, type ExplorerConfig, type ResolvedConfig } from './config.js';
import { createEventHub, type EventHub } from './events/index.js';
import { accountsModule } from './features/accounts/accounts-module.js';
import type { UserService } from './features/accounts/index.js';
import { apiModule } from './features/api.js';
import { approvalsModule } from './features/approvals/approvals-module.js';
import { chainModule } from './features/chain.js';
import { consensusModule } from './features/consensus.js';
import { graphqlModule } from './features/graphql.js';
import { composeKernel } from './features/http.js';
import { indexingModule } from './features/indexing.js';
import { labelsModule } from './features/labels/labels-module.js';
import { metricsModule } from './features/metrics.js';
import { pricesModule } from './features/prices/prices-module.js';
import { rateLimitsModule } from './features/rate-limits/rate-limits-module.js';
import { socketsModule } from './features/sockets.js';
import { uiModule } from './features/ui.js';
import { verificationModule } from './features/verification/verification-module.js';
import type { HttpKernel } from './http/index.js';
import type { Indexer } from './indexer/indexer.js';
import type { ExplorerMetrics } from './metrics/index.js';
import { ModuleHost } from './modules/index.js';
import type { Services } from './explorer-services.js';
import type { SocketGateway } from './sockets/gateway.js';
import type { Storage } from './storage/index.js';
import type { WebhookService } from './features/webhooks/index.js';
import { webhooksModule } from './features/webhooks/webhooks-module.js';

/** A running explorer: mount `kernel` with an adapter, then `start()` to index. */
export interface Explorer {
  readonly config: ResolvedConfig;
  readonly logger: Logger;
  readonly storage: Storage;
  readonly chain: ChainClient;
  readonly hub: EventHub;
  readonly services: Services;
  readonly indexer: Indexer;
  /** User accounts: e.g. `explorer.users.setRoles(id, ['user', 'premium'])`. */
  readonly users: UserService;
  /** The framework-neutral HTTP entry point adapters call. */
  readonly kernel: HttpKernel;
  /** Where adapters hand WebSocket upgrades: the channel protocol at `/ws` and any other socket endpoint. */
  readonly sockets: SocketGateway;
  /** Channels of your own at `/ws`: `explorer.channels.define(name)`, `explorer.channels.publish(name, data)`. */
  readonly channels: ExplorerChannels;
  /** Users' webhooks (what `/api/v1/account/webhooks` serves), for operators and tests. */
  readonly webhooks: WebhookService;
  /** The Prometheus metrics behind `GET /metrics` (register your own in `metrics.registry`); `null` when `metrics.enabled` is false. */
  readonly metrics: ExplorerMetrics | null;
  /**
   * Begins following the pending pool and, where `indexer.enabled`, indexing — at once with the
   * default coordinator, once this instance holds the lease with a shared one. Idempotent.
   */
  start(): Promise<void>;
  /**
   * Writes the rate-limit counts this instance holds to storage and reads back the shared totals
   * now rather than on the next beat (`rateLimits.flushIntervalMs`); `close()` does it too.
   */
  flushRateLimits(): Promise<void>;
  /** Stops indexing and releases storage. Idempotent. */
  close(): Promise<void>;
}

/**
 * Validates `config`, prepares storage and composes the feature modules (`features/`), each
 * after the ones it uses: their services, routes, sockets and start and close hooks.
 *
 * @example
 * ```ts
 * const explorer = await createExplorer({ rpcUrl: 'http://127.0.0.1:8545', storage: memoryStorage() });
 * await fastify.register(chainlens, { explorer });
 * await explorer.start();
 * ```
 */
export async function createExplorer(input: ExplorerConfig): Promise<Explorer> {
  const config = resolveConfig(input);
  const logger = config.logger ?? pino({ level: config.logLevel, name: 'chainlens' });
  const { storage } = config;
  const chain = createChainClient({ rpcUrl: config.rpcUrl, timeoutMs: config.http.upstreamTimeoutMs });
  const hub = createEventHub();
  // What must read its own writes (the indexers, accounts and keys, counters, jobs) reads the
  // primary; everything served reads `storage`, which may be read replicas a little behind it.
  const app = new ModuleHost({ logger, storage, writer: storage.primary ?? storage, chain, hub, clock: config.clock });

  const indexing = app.register(indexingModule, { config });
  const { cluster, head, records, tokenReader } = indexing;
  const limits = app.register(rateLimitsModule, { config });
  const accounts = app.register(accountsModule, { config, cluster, clientIp: limits.clientIp });
  const labels = app.register(labelsModule, { config, cluster, head, tokenReader });
  const prices = app.register(pricesModule, { config, head, tokenReader });
  // The services the chain-reading ones build on.
  const base = { ...indexing.services, ...labels.services, ...prices.services };
  const chainReads = app.register(chainModule, { config, head, records, tokenReader, services: base });
  const approvals = app.register(approvalsModule, { head, tokenReader, services: { ...base, ...chainReads.services } });
  const consensus = app.register(consensusModule, { config, head, records, services: { ...base, ...chainReads.services } });
  const verification = app.register(verificationModule, { config, cluster });
  const services: Services = { ...base, ...accounts.services, ...chainReads.services, ...approvals.services, ...consensus.services, ...verification.services };

  app.register(apiModule, { config, services });
  const graphql = app.register(graphqlModule, { config, services });
  const { sockets, channels } = app.register(socketsModule, {
    config, services, authenticate: accounts.authenticate, clientIp: limits.clientIp, revoked: accounts.revoked, cluster, endpoints: [graphql.socketEndpoint],
  });
  const metrics = app.register(metricsModule, { config, indexer: indexing.indexer, services, sockets, rateLimited: limits.rejected });
  const webhooks = app.register(webhooksModule, {
    config: config.webhooks, services, registry: metrics?.registry ?? null,
    // While blocks are traced behind the indexer, a block's internal transfers are told before the next block's deliveries.
    tracedThrough: indexing.tracedThrough,
    // The cluster's indexing leaseholder, so that one instance deletes old deliveries.
    prunes: () => indexing.indexer.status.running,
  });
  app.register(uiModule, { config });
  const kernel = composeKernel(app, { config, authenticate: accounts.authenticate, rateLimit: limits.rateLimit, head, labelsVersion: labels.labelsVersion });

  await storage.init();

  let closed = false;
  let started = false;
  return {
    config,
    logger,
    storage,
    chain,
    hub,
    services,
    indexer: indexing.indexer,
    users: services.users,
    kernel,
    sockets,
    channels,
    metrics,
    webhooks,
    async start() {
      if (closed) throw new Error('explorer is closed');
      if (started) return;
      started = true;
      await app.start();
    },
    flushRateLimits: () => limits.flush(),
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      hub.all.clear();
      await storage.close();
    },
  };
}
