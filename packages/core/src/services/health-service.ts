import type { ChainClient } from '../chain/chain-client.js';
import type { Indexer } from '../indexer/indexer.js';
import type { ChainCursors, StorageLifecycle } from '../storage/index.js';
import type { z } from 'zod';
import type { healthRecordSchema } from '../records/record-schemas.js';

/** Health record (decisions.md: `GET /health`). */
export type HealthRecord = z.infer<typeof healthRecordSchema>;

/** Options of {@link HealthService}. */
export interface HealthOptions {
  /** Lag in blocks above which the explorer reports `degraded`. */
  maxLag: number;
  /** Timeout of the node probe, in milliseconds. */
  probeTimeoutMs: number;
  /** The first block indexed: a trace cursor below it has traced nothing. */
  startBlock: bigint;
}

/** Probes storage and the node for `/health`. */
export class HealthService {
  private chainId: number | null = null;
  private readonly startedAt = Date.now();

  constructor(
    private readonly storage: StorageLifecycle & ChainCursors,
    private readonly chain: ChainClient,
    private readonly indexer: Indexer,
    private readonly options: HealthOptions,
  ) {}

  async check(): Promise<HealthRecord> {
    const [storageUp, cursor, tracedBlock, latest] = await Promise.all([
      this.storage.ping().then(() => true, () => false),
      this.storage.getCursor().catch(() => null),
      this.tracedBlock().then((traced) => (traced === null ? null : Number(traced)), () => null),
      this.probeNode(),
    ]);
    const indexedBlock = cursor ? Number(cursor.number) : null;
    const lag = latest !== null && indexedBlock !== null ? Math.max(0, latest - indexedBlock) : null;
    const indexerFailing = this.indexer.status.running && this.indexer.status.lastError !== null;
    const status = !storageUp ? 'down' : latest === null || indexerFailing || (lag !== null && lag > this.options.maxLag) ? 'degraded' : 'ok';
    return {
      status,
      chainId: this.chainId,
      latestBlock: latest,
      indexedBlock,
      lag,
      tracedBlock,
      traceLag: tracedBlock !== null && indexedBlock !== null ? Math.max(0, indexedBlock - tracedBlock) : null,
      storage: storageUp ? 'ok' : 'down',
      uptime: Math.floor((Date.now() - this.startedAt) / 1000),
    };
  }

  /**
   * The block through which every indexed block's call traces are stored; `null` before the first
   * is traced, where traces are off, and where the node does not trace (which leaves the trace
   * cursor below the first block, on every instance).
   */
  async tracedBlock(): Promise<bigint | null> {
    const { tracing } = this.indexer.status;
    if (tracing === null || tracing.support === 'no') return null;
    const traced = await this.storage.getTraceCursor();
    return traced !== null && traced >= this.options.startBlock ? traced : null;
  }

  private async probeNode(): Promise<number | null> {
    const timeout = new Promise<null>((resolve) => setTimeout(resolve, this.options.probeTimeoutMs, null).unref());
    const probe = (async () => {
      this.chainId ??= await this.chain.chainId();
      return Number(BigInt(await this.chain.request<string>('eth_blockNumber')));
    })().catch(() => null);
    return Promise.race([probe, timeout]);
  }
}
