import type { Logger } from 'pino';
import type { EventHub } from '../events/hub.js';
import type { IndexedHead } from '../events/indexed-head.js';
import type { TokenMetadataStorage } from '../storage/index.js';
import type { TokenMetadataReader } from '../tokens/token-metadata.js';
import { Alarm } from './sleep.js';

/** Options of {@link TokenMetadataIndexer}. */
export interface TokenMetadataIndexerOptions {
  /** Tokens read per round. */
  batchSize: number;
  /** Wait between rounds when nothing is left to read (a new block wakes it sooner). */
  idleMs: number;
  /** Longest wait after a failed round (waits double from `idleMs`). */
  maxBackoffMs: number;
}

/**
 * Reads name, symbol and decimals of newly seen tokens from their contracts and stores them,
 * beside the block indexer rather than in it: a slow or odd contract never holds up ingestion.
 * Whatever a contract does not answer sensibly (a reverting view, bytes that are no text) is
 * stored as `null` and logged; an unreachable node is retried with backoff.
 */
export class TokenMetadataIndexer {
  readonly #alarm = new Alarm();
  #abort: AbortController | null = null;
  #loop: Promise<void> | null = null;
  /** Bumped by every reorg: metadata read before one may be another contract's (see {@link readPending}). */
  #reorgs = 0;

  constructor(
    private readonly storage: TokenMetadataStorage,
    private readonly reader: TokenMetadataReader,
    private readonly head: IndexedHead,
    private readonly hub: EventHub,
    private readonly logger: Logger,
    private readonly options: TokenMetadataIndexerOptions,
  ) {}

  start(): void {
    if (this.#loop) return;
    this.#abort = new AbortController();
    this.hub.on('block', this.#wake);
    this.hub.on('reorg', this.#onReorg);
    this.#loop = this.#run(this.#abort.signal);
  }

  async stop(): Promise<void> {
    this.hub.off('block', this.#wake);
    this.hub.off('reorg', this.#onReorg);
    this.#abort?.abort();
    await this.#loop;
    this.#loop = null;
  }

  readonly #wake = () => this.#alarm.ring();
  readonly #onReorg = () => this.#reorgs++;

  async #run(signal: AbortSignal): Promise<void> {
    let backoff = this.options.idleMs;
    while (!signal.aborted) {
      try {
        const read = await this.readPending();
        backoff = this.options.idleMs;
        if (read < this.options.batchSize) await this.#alarm.sleep(this.options.idleMs, signal);
      } catch (error) {
        this.logger.warn({ err: error }, 'token metadata: reading failed; retrying');
        await this.#alarm.sleep(backoff, signal);
        backoff = Math.min(backoff * 2, this.options.maxBackoffMs);
      }
    }
  }

  /**
   * Reads and stores one batch of tokens still without metadata; resolves how many. What was read
   * across a reorg is not stored (the reorg may have put another contract at the address, whose
   * first transfer is written by then): those tokens are read again next round.
   */
  async readPending(): Promise<number> {
    const reorgs = this.#reorgs;
    const tokens = await this.storage.listTokensWithoutMetadata(this.options.batchSize);
    if (tokens.length === 0) return 0;
    const tag = await this.head.blockTag();
    await Promise.all(
      tokens.map(async (token) => {
        const metadata = await this.reader.metadata(token, tag);
        if (reorgs !== this.#reorgs) return;
        const missing = Object.entries(metadata).filter(([, value]) => value === null).map(([field]) => field);
        if (missing.length > 0) this.logger.info({ token, missing }, 'token metadata: the contract does not answer every field');
        await this.storage.setTokenMetadata(token, metadata);
      }),
    );
    return tokens.length;
  }
}
