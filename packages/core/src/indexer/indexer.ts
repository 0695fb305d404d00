import type { Logger } from 'pino';
import { UpstreamUnavailableError } from '../errors/index.js';
import type { EventHub } from '../events/index.js';
import type { BlockBundle, BlockReader, ChainWriter, Hex, IndexerCursor } from '../storage/index.js';
import type { BlockSource } from './block-source.js';
import { Alarm, sleep } from './sleep.js';
import type { TraceIndexer, TraceIndexerStatus } from './trace-indexer.js';

/** Tuning of the {@link Indexer}. */
export interface IndexerOptions {
  /** First block to index when storage has no cursor. */
  startBlock: bigint;
  /** Blocks fetched ahead of the one being written. */
  concurrency: number;
  /** How often to ask the node for a new head once caught up. */
  pollIntervalMs: number;
  /** First retry delay after an error; doubles up to `maxBackoffMs`. */
  retryBaseMs: number;
  maxBackoffMs: number;
  /** How often catch-up progress is logged. */
  progressIntervalMs: number;
}

/** What the indexer knows right now, for `/health`. */
export interface IndexerStatus {
  running: boolean;
  /** `down` while the node cannot be reached; `ok` after the next successful step. */
  upstream: 'ok' | 'down';
  /** The node's head as last seen. */
  head: bigint | null;
  lastError: string | null;
  /** The trace indexer's, where blocks are traced (`indexer.traces`); else `null`. */
  tracing: TraceIndexerStatus | null;
}

/**
 * Follows the chain into storage: catches up from the cursor with `concurrency` blocks in
 * flight, writes blocks atomically in order (those already fetched together, in one write), then
 * polls for new heads. A parent-hash
 * mismatch is a reorg: storage rolls back to the common ancestor and indexing goes on from
 * there. Errors are retried with exponential backoff; no block is ever skipped. Call traces are
 * not on this path: the trace indexer, started and stopped with this one, reads them behind it.
 */
export class Indexer {
  private readonly state: Omit<IndexerStatus, 'tracing'> = { running: false, upstream: 'ok', head: null, lastError: null };
  private abort = new AbortController();
  private loop: Promise<void> | null = null;
  private readonly alarm = new Alarm();
  /** The cursor as this indexer last read or wrote it. */
  private written: bigint | null = null;
  private readonly tracer: TraceIndexer | null;

  /**
   * @param traceIndexer - makes the trace indexer that follows this one, given this one (it
   *   yields while this one catches up); `null` when traces are off.
   */
  constructor(
    private readonly storage: ChainWriter & BlockReader,
    private readonly source: BlockSource,
    private readonly hub: EventHub,
    private readonly logger: Logger,
    private readonly options: IndexerOptions,
    traceIndexer: ((indexer: Indexer) => TraceIndexer) | null = null,
  ) {
    this.tracer = traceIndexer?.(this) ?? null;
  }

  /** A snapshot of the indexer's state. */
  get status(): Readonly<IndexerStatus> {
    return { ...this.state, tracing: this.tracer?.status ?? null };
  }

  /** Whether it runs and more blocks than it keeps in flight lie between what it wrote and the node's head. */
  get catchingUp(): boolean {
    const { running, head } = this.state;
    return running && head !== null && this.written !== null && head - this.written > BigInt(this.options.concurrency);
  }

  /** Starts following the chain, and tracing behind it. Idempotent. */
  start(): void {
    if (this.loop) return;
    this.abort = new AbortController();
    this.state.running = true;
    this.written = null;
    this.loop = this.run();
    this.tracer?.start();
  }

  /** Stops after the block being written (and the traces being read), and waits for it. Idempotent. */
  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.all([this.loop, this.tracer?.stop()]);
    this.loop = null;
    this.state.running = false;
  }

  /** Asks the indexer to look for a new head now instead of at the next poll. */
  poke(): void {
    this.alarm.ring();
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    let failures = 0;
    let checkedChain = false;
    while (!this.stopped) {
      try {
        if (!checkedChain) checkedChain = await this.forgetOtherChain();
        const progressed = await this.step();
        failures = 0;
        this.state.upstream = 'ok';
        this.state.lastError = null;
        if (!progressed) await this.alarm.sleep(this.options.pollIntervalMs, this.abort.signal);
      } catch (error) {
        if (this.stopped) break;
        failures++;
        this.recordFailure(error, failures);
        await sleep(Math.min(this.options.maxBackoffMs, this.options.retryBaseMs * 2 ** (failures - 1)), this.abort.signal);
      }
    }
  }

  private recordFailure(error: unknown, failures: number): void {
    const upstreamDown = error instanceof UpstreamUnavailableError;
    if (upstreamDown) this.state.upstream = 'down';
    this.state.lastError = error instanceof Error ? error.message : String(error);
    const log = { err: upstreamDown ? undefined : error, failures, reason: this.state.lastError };
    if (failures === 1 || failures % 10 === 0) this.logger.warn(log, 'indexer step failed; retrying with backoff');
  }

  /**
   * Storage that holds another chain (a new dev chain against an old database, a changed RPC
   * URL) shares no block with the node: clear it at once instead of walking back block by block.
   * Resolves once the check is done.
   */
  private async forgetOtherChain(): Promise<boolean> {
    const first = await this.storage.getBlockByNumber(this.options.startBlock);
    if (!first) return true;
    const onChain = await this.source.header(this.options.startBlock);
    if (onChain?.hash === first.hash) return true;
    this.logger.warn({ block: this.options.startBlock.toString() }, 'storage holds blocks of another chain; clearing it and indexing from the start');
    await this.storage.rollbackTo(this.options.startBlock - 1n);
    return true;
  }

  /** One pass: index what the node has beyond the cursor. Resolves whether anything changed. */
  private async step(): Promise<boolean> {
    const cursor = await this.storage.getCursor();
    this.written = cursor?.number ?? null;
    const latest = await this.source.latest();
    this.state.head = latest.number;
    const next = cursor ? cursor.number + 1n : this.options.startBlock;
    if (latest.number >= next) return this.catchUp(next, latest.number, cursor);
    if (!cursor || latest.number < this.options.startBlock) return false;
    // Caught up: the node's head may still sit on another branch at the same or a lower height.
    const stored = await this.storage.getBlockByNumber(latest.number);
    if (stored && stored.hash !== latest.hash) {
      await this.rollbackToCommonAncestor(cursor);
      return true;
    }
    return false;
  }

  private async catchUp(from: bigint, to: bigint, cursor: IndexerCursor | null): Promise<boolean> {
    const { concurrency, progressIntervalMs } = this.options;
    const window: { fetched: boolean; bundle: Promise<BlockBundle | null> }[] = [];
    let nextToFetch = from;
    const refill = () => {
      while (window.length < concurrency && nextToFetch <= to && !this.stopped) {
        const pending = { fetched: false, bundle: this.source.bundle(nextToFetch++) };
        // Awaited in order below; this marks it fetched and silences early rejections.
        pending.bundle.then(() => (pending.fetched = true), () => (pending.fetched = true));
        window.push(pending);
      }
    };
    let parentHash: Hex | undefined = cursor?.hash;
    let written = 0;
    const started = Date.now();
    let lastReport = started;
    refill();
    try {
      while (window.length > 0 && !this.stopped) {
        const first = await window.shift()!.bundle;
        if (!first) break;
        // The blocks already fetched behind it go in the same write: one transaction, not one each.
        const batch = [first];
        // A block the node does not have (its head went back) ends the catch-up after this write.
        let ended = false;
        while (!ended && window[0]?.fetched) {
          const next = await window.shift()!.bundle;
          if (next) batch.push(next);
          else ended = true;
        }
        // A block that is not its predecessor's child means the node reorganised: what comes before it is written first.
        const linked = batch.findIndex((bundle, i) => bundle.block.parentHash !== (i === 0 ? (parentHash ?? bundle.block.parentHash) : batch[i - 1]!.block.hash));
        const writable = linked === -1 ? batch : batch.slice(0, linked);
        if (writable.length > 0) {
          await this.storage.writeBlocks(writable);
          for (const bundle of writable) {
            this.written = bundle.block.number;
            this.hub.emit('block', bundle);
          }
          parentHash = writable.at(-1)!.block.hash;
          written += writable.length;
        }
        if (linked !== -1) {
          await this.rollbackToCommonAncestor(await this.storage.getCursor());
          return true;
        }
        if (ended) break;
        refill();
        if (Date.now() - lastReport >= progressIntervalMs) {
          lastReport = Date.now();
          this.reportProgress(writable.at(-1)!.block.number, to, written, started);
        }
      }
    } finally {
      window.length = 0;
    }
    return written > 0;
  }

  private reportProgress(current: bigint, target: bigint, written: number, started: number): void {
    const seconds = (Date.now() - started) / 1000;
    const blocksPerSecond = written / seconds;
    const remaining = Number(target - current);
    this.logger.info(
      { block: current.toString(), head: target.toString(), lag: remaining, blocksPerSecond: Math.round(blocksPerSecond), etaSeconds: Math.round(remaining / blocksPerSecond) },
      'indexer catching up',
    );
  }

  /**
   * Walks back from the cursor until storage and the node agree on a block hash, rolls storage
   * back to that block and tells subscribers.
   */
  private async rollbackToCommonAncestor(cursor: IndexerCursor | null): Promise<void> {
    if (!cursor) return;
    const removed: Hex[] = [];
    let number = cursor.number;
    let ancestor: { blockNumber: bigint; blockHash: Hex } | null = null;
    while (number >= this.options.startBlock) {
      const stored = await this.storage.getBlockByNumber(number);
      if (!stored) break;
      const onChain = await this.source.header(number);
      if (onChain && onChain.hash === stored.hash) {
        ancestor = { blockNumber: number, blockHash: stored.hash };
        break;
      }
      removed.push(stored.hash);
      number--;
    }
    const target = ancestor ? ancestor.blockNumber : this.options.startBlock - 1n;
    await this.storage.rollbackTo(target);
    this.logger.warn({ commonAncestor: target.toString(), removed: removed.length }, 'chain reorganisation: rolled back');
    this.hub.emit('reorg', {
      commonAncestor: ancestor ?? { blockNumber: target, blockHash: '0x' as Hex },
      removedBlockHashes: removed,
    });
  }
}
