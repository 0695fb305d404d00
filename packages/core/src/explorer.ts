import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { createAuthenticator } from './http/authenticate.js';
import { ApiKeyService, PasswordHasher, TokenIssuer, UserService, type Revocation } from './auth/index.js';
import { v1Routes } from './api/v1/index.js';
import { v2Routes } from './api/v2/index.js';
import { etherscanRoutes } from './api/etherscan/index.js';
import { jsonRpcRoutes } from './api/json-rpc/index.js';
import { graphqlRoutes } from './api/graphql.js';
import { createGraphqlExecutor, graphqlSocketEndpoint } from './graphql/index.js';
import { documentationRoutes } from './api/openapi/index.js';
import { uiRoutes } from './api/ui/index.js';
import { requestLog } from './logging/index.js';
import { ExplorerMetrics, metricsRoutes } from './metrics/index.js';
import { createChainClient, type ChainClient } from './chain/chain-client.js';
import { watchNode } from './chain/head-watcher.js';
import { ChannelEndpoint, ChannelRegistry, explorerChannels, type ExplorerChannels } from './channels/index.js';
import { createEventHub, IndexedHead, type EventHub } from './events/index.js';
import { CredentialWatch } from './sockets/credential-watch.js';
import { SocketGateway } from './sockets/gateway.js';
import { resolveConfig, type ExplorerConfig, type ResolvedConfig } from './config.js';
import { ConsensusPublisher } from './services/consensus-publisher.js';
import { createConsensusSource } from './consensus/create-consensus-source.js';
import { ClusterMember } from './coordination/cluster.js';
import { localCoordinator } from './coordination/coordinator.js';
import { clientIp, createHttpKernel, RateLimiter, rateLimitOutcome, ResponseCache, type HttpKernel, type HttpRequest } from './http/index.js';
import { after } from './http/maybe-async.js';
import { BatchedCounters } from './counters/batched-counters.js';
import { Throttles } from './counters/index.js';
import { BlockSource } from './indexer/block-source.js';
import { Indexer } from './indexer/indexer.js';
import { BlockTracer } from './indexer/block-tracer.js';
import { TraceIndexer } from './indexer/trace-indexer.js';
import { PendingTracker } from './indexer/pending-tracker.js';
import {
  AccountService,
  ApprovalService,
  ChartService,
  ExportService,
  LabelService,
  LabelsVersion,
  BlockLineage,
  BlockService,
  ChainRecordCache,
  ConsensusService,
  ContractService,
  GasOracleService,
  HealthService,
  LogService,
  MetadataService,
  NetworkStatsService,
  NftInventoryService,
  StatusService,
  SubmissionService,
  PriceService,
  SearchService,
  TokenService,
  TraceService,
  TransactionService,
  BalanceChangeService,
  DelegationService,
  TransactionDecodingService,
  TransactionEnvelopeService,
  type Services,
} from './services/index.js';
import type { Storage } from './storage/index.js';
import { TokenMetadataIndexer } from './indexer/metadata-indexer.js';
import { PricePublisher } from './services/price-publisher.js';
import { UniswapV2PriceSource } from './prices/uniswap-v2-price-source.js';
import { tokenDecimals } from './tokens/token-decimals.js';
import { TokenMetadataReader } from './tokens/token-metadata.js';
import { VerificationService } from './verification/verification-service.js';
import { createWebhooks, type WebhookService } from './webhooks/index.js';

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
 * Validates `config`, prepares storage and wires services, routes and the indexer.
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
  // What must read its own writes (the indexers, accounts and keys, counters, jobs) reads the
  // primary; everything served reads `storage`, which may be read replicas a little behind it.
  const writer = storage.primary ?? storage;
  const chain = createChainClient({ rpcUrl: config.rpcUrl, timeoutMs: config.http.upstreamTimeoutMs });
  const hub = createEventHub();
  const { traces, traceConcurrency, traceCatchUpConcurrency, traceBatchBlocks, ...indexing } = config.indexer;
  const tracing = logger.child({ module: 'traces' });
  const tracer: TraceIndexer | null = traces
    ? new TraceIndexer(writer, new BlockTracer(chain, tracing), hub, tracing, {
        concurrency: traceConcurrency,
        catchUpConcurrency: traceCatchUpConcurrency,
        batchBlocks: traceBatchBlocks,
        pollIntervalMs: indexing.pollIntervalMs,
        retryBaseMs: indexing.retryBaseMs,
        maxBackoffMs: indexing.maxBackoffMs,
        progressIntervalMs: indexing.progressIntervalMs,
      }, () => indexer.catchingUp)
    : null;
  const indexer: Indexer = new Indexer(writer, new BlockSource(chain), hub, logger.child({ module: 'indexer' }), { startBlock: config.startBlock, ...indexing }, tracer);
  const pending = new PendingTracker(chain, hub, logger.child({ module: 'pending' }), config.pending);
  const head = new IndexedHead(storage, hub, config.reads.headMaxAgeMs, { followsStorage: storage.primary !== undefined });
  const limits = config.rateLimits;
  const ipOf = (request: HttpRequest) => clientIp(request, limits.trustedProxyHops);
  const throttles = new Throttles(writer, {
    registrationsPerHour: limits.enabled ? limits.registrationsPerHour : Number.POSITIVE_INFINITY,
    loginFailures: limits.enabled ? limits.loginFailures : Number.POSITIVE_INFINITY,
    loginWindowMinutes: limits.loginWindowMinutes,
    now: config.clock,
  });
  // Tier counts are held here and flushed on a beat: a storage write per request would cost a round trip each.
  const counters =
    limits.enabled && limits.flushIntervalMs > 0
      ? new BatchedCounters(writer, {
          flushIntervalMs: limits.flushIntervalMs,
          now: config.clock,
          onFlushError: (error) => logger.warn({ err: error }, 'rate-limit counts could not be flushed; they are sent on the next beat'),
        })
      : null;
  const limiter = limits.enabled ? new RateLimiter(counters ?? writer, { ...limits, now: config.clock }) : null;
  // A revoked key or a deactivated user closes the connections opened with them, here and, through the bus, on every instance.
  const onRevoked = (revocation: Revocation) => {
    credentials.revoked(revocation);
    if (config.coordinator) cluster.relayRevocation(revocation);
  };
  const users = new UserService(writer, new PasswordHasher(), tokenIssuer(config, logger), throttles, config.clock, onRevoked);
  const apiKeys = new ApiKeyService(writer, { now: config.clock, maxLiveKeys: config.auth.maxApiKeysPerUser, onRevoked });
  // Token metadata is many small eth_calls at once: they travel as JSON-RPC batches.
  const tokenReader = new TokenMetadataReader(createChainClient({ rpcUrl: config.rpcUrl, timeoutMs: config.http.upstreamTimeoutMs, batchSize: 100 }), hub);
  const decimalsOf = tokenDecimals(storage, tokenReader, head);
  const priceSource = config.priceSource ?? (config.prices ? new UniswapV2PriceSource(storage, decimalsOf, config.prices) : null);
  const prices = new PriceService(priceSource, storage, head, decimalsOf);
  const records = new ChainRecordCache(hub, config.reads.recordCacheBytes);
  const labelsVersion = new LabelsVersion(storage, config.reads.headMaxAgeMs);
  // A label change empties this instance's label and answer caches at once, and through the bus every other instance's.
  const labels = new LabelService(storage, labelsVersion, {
    ...config.labels,
    now: config.clock,
    onChange: () => {
      if (config.coordinator) cluster.relayLabels();
    },
  });
  const tokens = new TokenService(storage, head, tokenReader, prices, labels, config.startBlock);
  const blocks = new BlockService(storage, head, records, labels, config.startBlock);
  const consensus = new ConsensusService(storage, head, blocks, labels, createConsensusSource({ ...config, upstreamTimeoutMs: config.http.upstreamTimeoutMs }, storage, chain), config.consensus);
  const contracts = new ContractService(storage, head, chain, labels);
  const transactions = new TransactionService(storage, head, chain, records, labels, config.startBlock);
  const callTrees = new TraceService(storage, chain, labels, config.traces);
  const envelopes = new TransactionEnvelopeService(storage, chain, labels);
  const delegations = new DelegationService(chain, head, labels);
  const services: Services = {
    accounts: new AccountService(storage, head, chain, records, labels),
    apiKeys,
    approvals: new ApprovalService(storage, tokens, labels),
    balanceChanges: new BalanceChangeService(storage, callTrees, tokens, envelopes, labels),
    blocks,
    charts: new ChartService(storage, head, prices),
    consensus,
    contracts,
    decoding: new TransactionDecodingService(storage, callTrees, delegations),
    delegations,
    envelopes,
    exports: new ExportService(storage, labels, tokens, config.exports),
    gasOracle: new GasOracleService(chain),
    health: new HealthService(storage, chain, indexer, { ...config.health, startBlock: config.startBlock }),
    labels,
    logs: new LogService(storage),
    metadata: new MetadataService(writer, chain, head, tokenReader, config.clock),
    networkStats: new NetworkStatsService(storage, chain, config.stats.windowBlocks),
    nfts: new NftInventoryService(storage, chain, head, tokens, labels),
    pending,
    prices,
    search: new SearchService(blocks, transactions, tokens, contracts, labels),
    status: new StatusService(storage, head, chain, pending, consensus, records),
    submission: new SubmissionService(chain, pending),
    tokens,
    traces: callTrees,
    transactions,
    users,
    verification: new VerificationService({ storage: writer, chain, logger: logger.child({ module: 'verification' }), clock: config.clock, ...config.verification }),
  };
  const metrics = config.metrics.enabled ? new ExplorerMetrics({ indexer, storage, hub, tracedBlock: () => services.health.tracedBlock(), sockets: () => sockets.stats() }) : null;
  const webhooks = createWebhooks({
    storage: writer, services, hub, config: config.webhooks, logger: logger.child({ module: 'webhooks' }), clock: config.clock,
    registry: metrics?.registry ?? null,
    // While blocks are traced behind the indexer, a block's internal transfers are told before the next block's deliveries.
    // An instance that does not index has not asked the node: it goes by what the indexing one relays.
    tracedThrough: async () => (tracer && (tracer.status.support === 'unknown' ? cluster.traceSupport : tracer.status.support) !== 'no' ? writer.getTraceCursor() : null),
    // The cluster's indexing leaseholder, so that one instance deletes old deliveries.
    prunes: () => indexer.status.running,
  });
  const graphql = createGraphqlExecutor({ services, hub, logger: logger.child({ module: 'graphql' }), policy: config.graphql });
  const apiRoutes = [
    ...v1Routes(services, { passwordMinLength: config.auth.passwordMinLength, clock: config.clock, clientIp: ipOf, exports: config.exports }),
    ...v2Routes(services),
    ...etherscanRoutes(services, chain),
    ...jsonRpcRoutes(services, chain, { maxBatch: config.rpc.maxBatch, logger: logger.child({ module: 'json-rpc' }) }),
    ...graphqlRoutes(graphql),
    ...(metrics ? metricsRoutes(metrics, config.metrics.scope) : []),
    ...webhooks.routes,
  ];
  const pageRoutes = config.ui ? uiRoutes(config.ui.path) : [];
  const logRequest = requestLog(logger.child({ module: 'http' }));
  const authenticate = createAuthenticator(users, apiKeys);
  const kernel = createHttpKernel({
    routes: [...apiRoutes, ...pageRoutes, ...documentationRoutes([...apiRoutes, ...pageRoutes])],
    logger,
    bodyLimit: config.http.bodyLimit,
    bodyDrainLimit: config.http.bodyDrainLimit,
    authenticate,
    rateLimit: limiter
      ? (request, principal, weight) =>
          after(limiter.hit(principal, ipOf(request), weight), (state) => {
            const outcome = rateLimitOutcome(state);
            if (outcome.retryAfter !== null) metrics?.rateLimited();
            return outcome;
          })
      : undefined,
    onResponse: metrics
      ? (outcome) => {
          logRequest(outcome);
          metrics.observeRequest(outcome);
        }
      : logRequest,
    responseCache:
      config.reads.responseCacheBytes > 0
        ? new ResponseCache(
            async () => (await head.current())?.hash ?? null,
            config.reads.responseCacheBytes,
            new BlockLineage(hub),
            async () => String(await labelsVersion.current()),
          )
        : undefined,
  });
  const tokenMetadata = new TokenMetadataIndexer(writer, tokenReader, head, hub, logger.child({ module: 'token-metadata' }), {
    batchSize: config.tokens.metadataBatchSize,
    idleMs: config.tokens.metadataIdleMs,
    maxBackoffMs: config.indexer.maxBackoffMs,
  });
  const pricePublisher = new PricePublisher(prices, hub, logger.child({ module: 'prices' }));
  const consensusPublisher = new ConsensusPublisher(consensus, hub, logger.child({ module: 'consensus' }));
  const cluster = new ClusterMember(config.coordinator ?? localCoordinator(), indexer, storage, hub, logger.child({ module: 'cluster' }), config.cluster.leaseRetryMs);
  const channelRegistry = new ChannelRegistry();
  const { maxSubscriptions, maxReplayBlocks, reorgMemoryBlocks, credentialCheckIntervalMs, ...socketLimits } = config.sockets;
  const credentials = new CredentialWatch({ authenticate, checkIntervalMs: credentialCheckIntervalMs, now: config.clock, logger: logger.child({ module: 'sockets' }) });
  const channelEndpoint = new ChannelEndpoint({
    hub,
    blocks,
    tokens: services.tokens,
    labels,
    registry: channelRegistry,
    authenticate,
    credentials,
    limits: { maxSubscriptions, maxReplayBlocks, reorgMemoryBlocks },
    logger: logger.child({ module: 'channels' }),
  });
  const socketEndpoints = [channelEndpoint, graphqlSocketEndpoint(graphql, { maxSubscriptions, logger: logger.child({ module: 'graphql' }) })];
  const sockets = new SocketGateway({ endpoints: socketEndpoints, limits: socketLimits, authenticate, clientIp: ipOf, credentials, logger: logger.child({ module: 'sockets' }) });
  const channels = explorerChannels(channelRegistry, channelEndpoint, config.coordinator ? (message) => cluster.relayChannel(message) : null);
  cluster.onChannel(({ channel, address, blockNumber, data }) => channelEndpoint.publish(channel, address, blockNumber === null ? null : BigInt(blockNumber), data));
  cluster.onRevocation((revocation) => credentials.revoked(revocation));
  cluster.onLabels(() => labelsVersion.changed());

  await storage.init();

  let closed = false;
  let started = false;
  let watcher: { stop(): Promise<void> } | null = null;
  return {
    config,
    logger,
    storage,
    chain,
    hub,
    services,
    indexer,
    users,
    kernel,
    sockets,
    channels,
    metrics,
    webhooks: webhooks.service,
    async start() {
      if (closed) throw new Error('explorer is closed');
      if (started) return;
      started = true;
      await cluster.start(config.indexer.enabled);
      pending.start();
      // Beside the indexer: every indexing-capable instance fills in what it finds missing.
      if (config.indexer.enabled) tokenMetadata.start();
      if (config.webhooks.dispatch) webhooks.dispatcher.start();
      if (config.wsRpcUrl && !watcher) {
        watcher = watchNode(config.wsRpcUrl, { onNewHead: () => indexer.poke(), onPendingTransactions: () => pending.poke() }, logger);
      }
    },
    flushRateLimits: async () => counters?.flush(),
    async close() {
      if (closed) return;
      closed = true;
      sockets.close();
      credentials.close();
      pricePublisher.stop();
      consensusPublisher.stop();
      await Promise.all([cluster.stop(), pending.stop(), tokenMetadata.stop(), webhooks.dispatcher.stop(), watcher?.stop(), services.verification.close(), counters?.close()]);
      hub.all.clear();
      await storage.close();
    },
  };
}

/** The access-token issuer; without a configured secret, a random one that dies with the process. */
function tokenIssuer(config: ResolvedConfig, logger: Logger): TokenIssuer {
  const { jwtSecret, tokenLifetimeSeconds, issuer, audience } = config.auth;
  if (jwtSecret === undefined) {
    logger.warn('auth.jwtSecret is not set: using a random secret, so tokens end with this process and other instances refuse them');
  }
  const secret = jwtSecret === undefined ? new Uint8Array(randomBytes(32)) : new TextEncoder().encode(jwtSecret);
  return new TokenIssuer({ secret, lifetimeSeconds: tokenLifetimeSeconds, issuer, audience, now: config.clock });
}
