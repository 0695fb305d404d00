import type { ResolvedConfig } from '../config.js';
import { createChainClient } from '../chain/chain-client.js';
import { watchNode } from '../chain/head-watcher.js';
import { ClusterMember } from '../coordination/cluster.js';
import { localCoordinator } from '../coordination/coordinator.js';
import { IndexedHead } from '../events/index.js';
import { BlockSource } from '../indexer/block-source.js';
import { BlockTracer } from '../indexer/block-tracer.js';
import { Indexer } from '../indexer/indexer.js';
import { TokenMetadataIndexer } from '../indexer/metadata-indexer.js';
import { PendingTracker } from '../indexer/pending-tracker.js';
import { TraceIndexer } from '../indexer/trace-indexer.js';
import { tracingFields } from '../graphql/fields/tracing.js';
import type { ExplorerModule } from '../modules/index.js';
import { ChainRecordCache, HealthService } from '../services/index.js';
import type { Services } from '../explorer-services.js';
import { TokenMetadataReader } from '../tokens/token-metadata.js';

type IndexingConfig = Pick<ResolvedConfig, 'rpcUrl' | 'wsRpcUrl' | 'startBlock' | 'indexer' | 'pending' | 'reads' | 'http' | 'tokens' | 'health' | 'coordinator' | 'cluster'>;

/** What the indexing module gives the modules after it. */
export interface Indexing {
  indexer: Indexer;
  /** The newest indexed block, as the served storage sees it. */
  head: IndexedHead;
  /** Recent blocks and transactions kept in memory, emptied by reorgs. */
  records: ChainRecordCache;
  /** Reads what token contracts say about themselves, as JSON-RPC batches. */
  tokenReader: TokenMetadataReader;
  /** This instance's part in a cluster: the indexing lease and the bus between instances. */
  cluster: ClusterMember;
  /**
   * The trace cursor while the trace pipeline adds internal transfers behind the blocks, else
   * `null` (traces off, or the node cannot trace).
   */
  tracedThrough: () => Promise<bigint | null>;
  services: Pick<Services, 'pending' | 'health'>;
}

/**
 * Following the chain: the block indexer and the trace, pending-pool and token metadata loops
 * beside it, the cluster lease that decides which instance indexes, and the node's new-head
 * subscription that wakes them.
 */
/** What the indexing module reads where it is served, and writes (the blocks, traces and token metadata) on the primary. */
type IndexingReads = 'StorageLifecycle' | 'ChainCursors' | 'BlockReader';
type IndexingWrites = 'ChainWriter' | 'BlockReader' | 'TransactionReader' | 'TokenMetadataStorage';

export const indexingModule: ExplorerModule<{ config: IndexingConfig }, Indexing, IndexingReads, IndexingWrites> = {
  name: 'indexing',
  graphql: [tracingFields],
  register(app, { config }) {
    const { storage, writer, chain, hub, logger } = app;
    const { traces, traceConcurrency, traceCatchUpConcurrency, traceBatchBlocks, ...indexing } = config.indexer;
    const tracing = logger.child({ module: 'traces' });
    const traceIndexer = (blocks: Indexer) =>
      new TraceIndexer(writer, new BlockTracer(chain, tracing), hub, tracing, {
        concurrency: traceConcurrency,
        catchUpConcurrency: traceCatchUpConcurrency,
        batchBlocks: traceBatchBlocks,
        pollIntervalMs: indexing.pollIntervalMs,
        retryBaseMs: indexing.retryBaseMs,
        maxBackoffMs: indexing.maxBackoffMs,
        progressIntervalMs: indexing.progressIntervalMs,
      }, () => blocks.catchingUp);
    const indexer = new Indexer(writer, new BlockSource(chain), hub, logger.child({ module: 'indexer' }), { startBlock: config.startBlock, ...indexing }, traces ? traceIndexer : null);
    const pending = new PendingTracker(chain, hub, logger.child({ module: 'pending' }), config.pending);
    const head = new IndexedHead(storage, hub, config.reads.headMaxAgeMs, { followsStorage: storage.primary !== undefined });
    // Token metadata is many small eth_calls at once: they travel as JSON-RPC batches.
    const tokenReader = new TokenMetadataReader(createChainClient({ rpcUrl: config.rpcUrl, timeoutMs: config.http.upstreamTimeoutMs, batchSize: 100 }), hub);
    const records = new ChainRecordCache(hub, config.reads.recordCacheBytes);
    const tokenMetadata = new TokenMetadataIndexer(writer, tokenReader, head, hub, logger.child({ module: 'token-metadata' }), {
      batchSize: config.tokens.metadataBatchSize,
      idleMs: config.tokens.metadataIdleMs,
      maxBackoffMs: config.indexer.maxBackoffMs,
    });
    const cluster = new ClusterMember(config.coordinator ?? localCoordinator(), indexer, storage, hub, logger.child({ module: 'cluster' }), config.cluster.leaseRetryMs);
    let watcher: { stop(): Promise<void> } | null = null;
    app.onStart(async () => {
      await cluster.start(config.indexer.enabled);
      pending.start();
      // Beside the indexer: every indexing-capable instance fills in what it finds missing.
      if (config.indexer.enabled) tokenMetadata.start();
      if (config.wsRpcUrl && !watcher) {
        watcher = watchNode(config.wsRpcUrl, { onNewHead: () => indexer.poke(), onPendingTransactions: () => pending.poke() }, logger);
      }
    });
    app.onClose(() => Promise.all([cluster.stop(), pending.stop(), tokenMetadata.stop(), watcher?.stop()]));
    return {
      indexer,
      head,
      records,
      tokenReader,
      cluster,
      // An instance that does not index has not asked the node: it goes by what the indexing one relays.
      tracedThrough: async () => {
        const { tracing } = indexer.status;
        if (!tracing) return null;
        const support = tracing.support === 'unknown' ? cluster.traceSupport : tracing.support;
        return support !== 'no' ? writer.getTraceCursor() : null;
      },
      services: { pending, health: new HealthService(storage, chain, indexer, { ...config.health, startBlock: config.startBlock }) },
    };
  },
};
