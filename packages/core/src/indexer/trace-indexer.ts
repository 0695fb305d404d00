import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { UpstreamUnavailableError } from '../errors/index.js';
import type { EventHub } from '../events/index.js';
import type { BlockBundle, BlockReader, BlockTraces, ChainWriter, Hex, StoredTransaction, TransactionReader } from '../storage/index.js';
import type { BlockToTrace, BlockTracer, TraceSupport } from './block-tracer.js';
import { mayCreateInside } from './contract-creations.js';
import { Alarm, sleep } from './sleep.js';

/** Tuning of the {@link TraceIndexer}. */
export interface TraceIndexerOptions {
  /** Blocks traced at once while the block indexer is caught up. */
  concurrency: number;
  /** Blocks traced at once while the block indexer catches up (0: none, tracing then leaves the node and this process to it). */
  catchUpConcurrency: number;
  /** Most blocks whose traces one storage write holds. */
  batchBlocks: number;
  /** How often to look for written blocks to trace when no block event came. */
  pollIntervalMs: number;
  /** First retry delay after an error; doubles up to `maxBackoffMs`. */
  retryBaseMs: number;
  maxBackoffMs: number;
  /** How often catch-up progress is logged. */
  progressIntervalMs: number;
}

/** What the trace indexer knows right now. */
export interface TraceIndexerStatus {
  running: boolean;
  /** Whether the node traces blocks (`no`: nothing is traced, and `tracedBlock` stays `null`). */
  support: TraceSupport;
  lastError: string | null;
}

/** A read in the window: consecutive blocks' traces, and whether they are in. */
interface Pending {
  /** Whether its read ended (so it no longer counts against the reads in flight). */
  done: boolean;
  /** Whether it costs the node a request (else none of its blocks has anything to trace). */
  traced: boolean;
  blocks: number;
  traces: Promise<BlockTraces[] | null>;
}

/** Transactions of blocks the indexer wrote in this process, kept (by count) for their tracing. */
const RECENT_TRANSACTIONS = 20_000;
/**
 * Longest a read block's traces wait for more to be written with them. Nobody waits on traces
 * behind the blocks, and each write is a transaction beside the blocks' own: a write per traced
 * block doubled the commits of a Postgres catch-up.
 */
const WRITE_DELAY_MS = 500;

/**
 * Traces written blocks in a pipeline of its own, behind the block indexer: from the storage's
 * trace cursor up to its block cursor, it reads the call traces of each block in which a
 * transaction ran code (others have nothing to trace) with `concurrency` reads in flight, and
 * writes them, consecutive blocks at once, moving the trace cursor. While the block indexer
 * catches up it keeps only `catchUpConcurrency` reads in flight (by default none), so that
 * tracing, which may cost the node a re-execution of each block, does not slow what every other
 * answer waits for.
 * Failures are retried with exponential backoff and no block is ever skipped; a reorg rolls the
 * trace cursor back with the blocks (storage refuses traces of a block no longer stored), so a
 * block mined again is traced again. A restart resumes from the stored trace cursor.
 */
export class TraceIndexer {
  #abort = new AbortController();
  #loop: Promise<void> | null = null;
  readonly #alarm = new Alarm();
  #lastError: string | null = null;
  readonly #recent = new LRUCache<Hex, readonly StoredTransaction[]>({ maxSize: RECENT_TRANSACTIONS, sizeCalculation: (transactions) => transactions.length + 1 });
  readonly #onBlock = (bundle: BlockBundle) => {
    // Blocks written while tracing yields to a catch-up are read back when their turn comes:
    // keeping thousands of them would only make the collector carry them meanwhile.
    if (!this.#yielding) this.#recent.set(bundle.block.hash, bundle.transactions);
    this.#alarm.ring();
  };
  readonly #onReorg = () => this.#alarm.ring();

  /**
   * @param catchingUp - whether the block indexer is catching up (then `catchUpConcurrency` applies).
   */
  constructor(
    private readonly storage: ChainWriter & BlockReader & TransactionReader,
    private readonly tracer: BlockTracer,
    private readonly hub: EventHub,
    private readonly logger: Logger,
    private readonly options: TraceIndexerOptions,
    private readonly catchingUp: () => boolean,
  ) {}

  get status(): TraceIndexerStatus {
    return { running: this.#loop !== null, support: this.tracer.support, lastError: this.#lastError };
  }

  /** Starts tracing behind the block indexer. Idempotent. */
  start(): void {
    if (this.#loop) return;
    this.#abort = new AbortController();
    this.hub.on('block', this.#onBlock);
    this.hub.on('reorg', this.#onReorg);
    this.#loop = this.#run();
  }

  /** Stops once the reads in flight end (nothing of them is written), and waits for it. Idempotent. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#loop;
    this.#loop = null;
    this.hub.off('block', this.#onBlock);
    this.hub.off('reorg', this.#onReorg);
  }

  get #stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  /** Whether tracing waits for the block indexer's catch-up to end. */
  get #yielding(): boolean {
    return this.options.catchUpConcurrency === 0 && this.catchingUp();
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#stopped) {
      try {
        const progressed = await this.#step();
        failures = 0;
        this.#lastError = null;
        if (!progressed) await this.#alarm.sleep(this.options.pollIntervalMs, this.#abort.signal);
      } catch (error) {
        if (this.#stopped) break;
        failures++;
        this.#lastError = error instanceof Error ? error.message : String(error);
        const upstreamDown = error instanceof UpstreamUnavailableError;
        if (failures === 1 || failures % 10 === 0) {
          this.logger.warn({ err: upstreamDown ? undefined : error, failures, reason: this.#lastError }, 'tracing failed; retrying with backoff');
        }
        await sleep(Math.min(this.options.maxBackoffMs, this.options.retryBaseMs * 2 ** (failures - 1)), this.#abort.signal);
      }
    }
  }

  /** One pass: traces what is written beyond the trace cursor. Resolves whether the trace cursor moved. */
  async #step(): Promise<boolean> {
    if (this.tracer.support === 'no') return false;
    // Not even a look at storage while yielding: the indexer's block events wake this loop on every block.
    if (this.#yielding) return false;
    const [cursor, traced] = await Promise.all([this.storage.getCursor(), this.storage.getTraceCursor()]);
    if (!cursor || traced === null || traced >= cursor.number) return false;
    const blocks = this.#blocksAfter(traced, cursor.number);
    const window: Pending[] = [];
    let exhausted = false;
    const refill = async () => {
      const limit = this.catchingUp() ? this.options.catchUpConcurrency : this.options.concurrency;
      const queued = () => window.reduce((sum, pending) => sum + pending.blocks, 0);
      while (!exhausted && !this.#stopped && queued() < this.options.batchBlocks && window.filter((p) => p.traced && !p.done).length < limit) {
        const group: BlockToTrace[] = [];
        while (group.length < this.tracer.blocksPerRead) {
          const next = await blocks.next();
          if (next.done) {
            exhausted = true;
            break;
          }
          group.push(next.value);
        }
        if (group.length > 0) window.push(this.#read(group));
      }
    };
    let ready: BlockTraces[] = [];
    let readySince = 0;
    let written = 0;
    const started = Date.now();
    let lastReport = started;
    try {
      await refill();
      while (window.length > 0 && !this.#stopped) {
        const traces = await window.shift()!.traces;
        if (traces === null) break;
        if (ready.length === 0) readySince = Date.now();
        ready.push(...traces);
        await refill();
        // Written when a batch is full, when nothing more is being read, or once the first has waited long enough.
        if (ready.length >= this.options.batchBlocks || window.length === 0 || Date.now() - readySince >= WRITE_DELAY_MS) {
          await this.#write(ready);
          written += ready.length;
          ready = [];
        }
        if (Date.now() - lastReport >= this.options.progressIntervalMs) {
          lastReport = Date.now();
          this.#reportProgress(traced + BigInt(written), cursor.number, written, started);
        }
      }
      if (ready.length > 0 && !this.#stopped) {
        await this.#write(ready);
        written += ready.length;
      }
    } finally {
      // Reads still in flight are dropped: silence their rejections.
      for (const pending of window) pending.traces.catch(() => undefined);
      await blocks.return(undefined);
    }
    return written > 0;
  }

  /**
   * Starts reading consecutive blocks' traces in one read: none are read for blocks where no code
   * ran, once the node is known to trace.
   */
  #read(group: readonly BlockToTrace[]): Pending {
    const needed = this.tracer.support === 'yes' ? group.filter((block) => mayCreateInside(block.transactions)) : group;
    const none = (block: BlockToTrace): BlockTraces => ({ blockNumber: block.number, blockHash: block.hash, contracts: [], internalTransactions: [] });
    if (needed.length === 0) return { done: true, traced: false, blocks: group.length, traces: Promise.resolve(group.map(none)) };
    const traces = this.tracer.trace(needed).then((read) => {
      if (!read) return null;
      const byNumber = new Map(read.map((entry) => [entry.blockNumber, entry]));
      return group.map((block) => byNumber.get(block.number) ?? none(block));
    });
    const pending: Pending = { done: false, traced: true, blocks: group.length, traces };
    traces.then(
      () => (pending.done = true),
      () => (pending.done = true),
    );
    return pending;
  }

  /**
   * The written blocks `after + 1` … `last` with their transactions, read from storage a batch at
   * a time (transactions this process indexed come from memory). Ends early when a block is gone:
   * a rollback took it, and the next pass starts from the trace cursor it left.
   */
  async *#blocksAfter(after: bigint, last: bigint): AsyncGenerator<BlockToTrace> {
    const batch = BigInt(this.options.batchBlocks);
    for (let from = after + 1n; from <= last; from += batch) {
      const numbers: bigint[] = [];
      for (let n = from; n <= last && n < from + batch; n++) numbers.push(n);
      const rows = await this.storage.getBlocksWithTransactionHashes(numbers);
      const missing = rows.flatMap((row) => (row && !this.#recent.has(row.block.hash) ? row.transactionHashes : []));
      const read = missing.length > 0 ? await this.storage.getTransactions(missing) : [];
      const byHash = new Map(read.flatMap((tx) => (tx ? [[tx.hash, tx] as const] : [])));
      for (const row of rows) {
        if (!row) return;
        const transactions = this.#recent.get(row.block.hash) ?? row.transactionHashes.map((hash) => byHash.get(hash));
        if (transactions.some((tx) => tx === undefined)) return;
        yield { number: row.block.number, hash: row.block.hash, transactions: transactions as StoredTransaction[] };
      }
    }
  }

  /** Writes consecutive blocks' traces and tells who waits on them (webhooks of their internal transfers). */
  async #write(traces: BlockTraces[]): Promise<void> {
    await this.storage.writeBlockTraces(traces);
    this.hub.emit('traced', { blockNumber: traces.at(-1)!.blockNumber });
  }

  #reportProgress(tracedBlock: bigint, target: bigint, written: number, started: number): void {
    const blocksPerSecond = written / ((Date.now() - started) / 1000);
    const remaining = Number(target - tracedBlock);
    this.logger.info(
      { tracedBlock: tracedBlock.toString(), indexedBlock: target.toString(), lag: remaining, blocksPerSecond: Math.round(blocksPerSecond), etaSeconds: Math.round(remaining / blocksPerSecond) },
      'traces catching up',
    );
  }
}
