import type { ChainCursors, IndexerCursor } from '../storage/index.js';
import type { EventHub } from './hub.js';

/**
 * The newest indexed block as services see it, without a storage round trip on every request
 * (confirmations need it on every transaction read). The hub's `block` events keep it current,
 * from this instance's indexer or, through a shared coordinator's bus, another instance's; a
 * `reorg` drops it. A value older than `maxAgeMs` is read again from storage, so an instance
 * that hears no events lags the indexer by at most that. An instance that hears blocks takes a
 * newer stored block when it hears it (a relayed block is in storage moments before its event
 * arrives, and what this instance keeps per block follows the events), or once it has stayed
 * unheard for `maxAgeMs`: it lags by at most twice that if its events stop.
 *
 * On a storage whose reads may lag its writes (read replicas: `followsStorage`), the head is
 * always what the reads see: a block event only makes it read storage again, and while storage
 * is behind the heard block every call reads it again, so an instance never serves a head its
 * replica has not reached.
 */
export class IndexedHead {
  #value: IndexerCursor | null = null;
  #readAt = Number.NEGATIVE_INFINITY;
  /** Bumped by every event, so a storage read that started before one cannot overwrite it. */
  #generation = 0;
  #reading: Promise<IndexerCursor | null> | null = null;
  #heardBlocks = false;
  /** When a storage read first found a block newer than the heard one, not heard since. */
  #aheadSince: number | null = null;
  /** The newest block heard, where the head follows storage. */
  #heard: bigint | null = null;
  readonly #followsStorage: boolean;

  constructor(
    private readonly storage: ChainCursors,
    hub: EventHub,
    private readonly maxAgeMs: number,
    options: { followsStorage?: boolean } = {},
  ) {
    this.#followsStorage = options.followsStorage ?? false;
    hub.on('block', ({ block }) => {
      this.#generation++;
      if (this.#followsStorage) {
        this.#heard = block.number;
        this.#readAt = Number.NEGATIVE_INFINITY;
        return;
      }
      this.#value = { number: block.number, hash: block.hash };
      this.#readAt = performance.now();
      this.#heardBlocks = true;
      this.#aheadSince = null;
    });
    hub.on('reorg', () => {
      this.#generation++;
      this.#readAt = Number.NEGATIVE_INFINITY;
      this.#heard = null;
    });
  }

  /** The cursor, at most `maxAgeMs` old; concurrent callers share one storage read. */
  current(): Promise<IndexerCursor | null> {
    const value = this.value();
    return value instanceof Promise ? value : Promise.resolve(value);
  }

  /**
   * As {@link current}, but the kept cursor comes at once, without a promise, while it is fresh:
   * the request path answers a cached request in its own tick.
   */
  value(): IndexerCursor | null | Promise<IndexerCursor | null> {
    if (performance.now() - this.#readAt <= this.maxAgeMs) return this.#value;
    this.#reading ??= this.#read();
    return this.#reading;
  }

  /** The indexed head as a node block tag (hex number), or `latest` before anything is indexed. */
  async blockTag(): Promise<string> {
    return blockTagOf(await this.current());
  }

  async #read(): Promise<IndexerCursor | null> {
    const generation = this.#generation;
    try {
      const cursor = await this.storage.getCursor();
      // An event came in meanwhile: a block's value is newer than this read; after a reorg this
      // read may predate the rollback, so it is answered once but not kept.
      if (generation !== this.#generation) return Number.isFinite(this.#readAt) ? this.#value : cursor;
      const now = performance.now();
      if (this.#followsStorage) {
        this.#value = cursor;
        // Behind a heard block: read again on the next call, until storage has it.
        const behind = this.#heard !== null && (cursor === null || cursor.number < this.#heard);
        this.#readAt = behind ? Number.NEGATIVE_INFINITY : now;
        return cursor;
      }
      const heard = this.#value;
      if (this.#heardBlocks && heard !== null && cursor !== null && cursor.number > heard.number) {
        this.#aheadSince ??= now;
        if (now - this.#aheadSince <= this.maxAgeMs) {
          this.#readAt = now;
          return heard;
        }
      }
      this.#aheadSince = null;
      this.#value = cursor;
      this.#readAt = now;
      return cursor;
    } finally {
      this.#reading = null;
    }
  }
}

/** `cursor`'s block as a node block tag (hex number), or `latest` without one. */
export function blockTagOf(cursor: IndexerCursor | null): string {
  return cursor ? `0x${cursor.number.toString(16)}` : 'latest';
}
