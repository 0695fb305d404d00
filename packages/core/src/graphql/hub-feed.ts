import type { EventHub, ExplorerEvents } from '../events/index.js';

/** Items an iterator may hold for a consumer that does not keep up; past them it ends with an error. */
const MAX_QUEUED = 10_000;

/** One subscriber's end of a feed: the items it has not taken yet. */
interface Sink<T> {
  push(item: T): void;
  fail(error: Error): void;
}

/** One hub listener and the subscribers it derives items for. */
interface Feed {
  sinks: Set<Sink<unknown>>;
  /** Stops its hub listener. */
  close: () => void;
}

/**
 * Hub events as async iterators for GraphQL subscriptions, shared by key: every subscription
 * with the same key (a field and its filter) hangs off one hub listener, and `select` shapes each
 * event's items once for all of them; the items handed out are the same objects, so what is
 * derived from them can be shared too. Events are handled one at a time, so items keep the hub's
 * order even when `select` reads storage.
 */
export class HubFeeds {
  readonly #feeds = new Map<string, Feed>();
  readonly #derived = new WeakMap<object, Map<string, unknown>>();

  constructor(private readonly hub: EventHub) {}

  /**
   * What `compute` derives from `payload` under `name`, computed once for every feed that asks
   * (a block's transactions, shaped once for `transactions` and every `addressTransactions`).
   */
  derived<T>(payload: object, name: string, compute: () => T): T {
    let byName = this.#derived.get(payload);
    if (!byName) this.#derived.set(payload, (byName = new Map()));
    if (!byName.has(name)) byName.set(name, compute());
    return byName.get(name) as T;
  }

  /** Subscribers of the feed `key`. */
  subscribers(key: string): number {
    return this.#feeds.get(key)?.sinks.size ?? 0;
  }

  /** Subscribers per field: the part of each feed's key before its filter (`addressTransactions:0x…` → `addressTransactions`). */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [key, feed] of this.#feeds) {
      const field = key.split(':', 1)[0]!;
      counts[field] = (counts[field] ?? 0) + feed.sinks.size;
    }
    return counts;
  }

  /**
   * The items `select` derives from each hub `event`, for one subscriber of the feed `key`
   * (`select` of the first subscriber serves the feed); `return()` (the client unsubscribed)
   * leaves it, and the last to leave stops the listener.
   */
  iterate<E extends keyof ExplorerEvents, T>(key: string, event: E, select: (payload: ExplorerEvents[E]) => Promise<readonly T[]> | readonly T[]): AsyncIterableIterator<T> {
    const feed = this.#feeds.get(key) ?? this.#open(key, event, select);
    const queue: T[] = [];
    const waiting: ((result: IteratorResult<T>) => void)[] = [];
    let failure: Error | null = null;
    let done = false;
    const stop = () => {
      if (done) return;
      done = true;
      this.#leave(key, feed, sink as Sink<unknown>);
      for (const next of waiting.splice(0)) next({ value: undefined, done: true });
    };
    const sink: Sink<T> = {
      push(item) {
        const next = waiting.shift();
        if (next) next({ value: item, done: false });
        else if (queue.length < MAX_QUEUED) queue.push(item);
        else sink.fail(new Error('subscription fell too far behind'));
      },
      fail(error) {
        failure ??= error;
        stop();
      },
    };
    feed.sinks.add(sink as Sink<unknown>);
    return {
      next() {
        if (queue.length > 0) return Promise.resolve({ value: queue.shift()!, done: false });
        if (failure) return Promise.reject(failure);
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => waiting.push(resolve));
      },
      return() {
        stop();
        queue.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  #open<E extends keyof ExplorerEvents, T>(key: string, event: E, select: (payload: ExplorerEvents[E]) => Promise<readonly T[]> | readonly T[]): Feed {
    let chain = Promise.resolve();
    const listener = (payload: ExplorerEvents[E]) => {
      chain = chain.then(async () => {
        if (feed.sinks.size === 0) return;
        try {
          const items = await select(payload);
          for (const sink of feed.sinks) for (const item of items) sink.push(item);
        } catch (error) {
          const failure = error instanceof Error ? error : new Error(String(error));
          for (const sink of [...feed.sinks]) sink.fail(failure);
        }
      });
    };
    const feed: Feed = { sinks: new Set(), close: () => this.hub.off(event, listener) };
    this.#feeds.set(key, feed);
    this.hub.on(event, listener);
    return feed;
  }

  #leave(key: string, feed: Feed, sink: Sink<unknown>): void {
    feed.sinks.delete(sink);
    if (feed.sinks.size > 0 || this.#feeds.get(key) !== feed) return;
    this.#feeds.delete(key);
    feed.close();
  }
}
