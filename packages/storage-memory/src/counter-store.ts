import type { CounterHit, CounterStorage } from '@chainlens/core';
import { LRUCache } from 'lru-cache';

/** One live or expired counter; the object is updated in place on each hit. */
interface Counter {
  value: number;
  expiresAt: number;
}

/**
 * The counters of `Storage.hitCounters` in an LRU cache of at most `max` entries. Expiry is
 * judged against each call's `now`, not the wall clock (lru-cache's `ttl` would use the clock):
 * an entry whose `expiresAt` is at or before `now` counts as absent, and is replaced by the next
 * hit. The LRU only bounds memory, dropping the least recently hit counters (expired ones
 * nobody hits again included) once `max` is reached.
 */
export class CounterStore implements CounterStorage {
  readonly #counters: LRUCache<string, Counter>;

  constructor(max: number) {
    // Bounded by a size of one per counter rather than `max`, which would allocate arrays of `max`
    // slots at once (about 2.8 MB at the default 100,000): memory grows with the counters held.
    this.#counters = new LRUCache({ maxSize: max, sizeCalculation: () => 1 });
  }

  /** Adds each hit's amount and returns the values after it, in input order. O(1) per hit. */
  async hitCounters(hits: readonly CounterHit[], now: number): Promise<number[]> {
    return hits.map(({ key, amount, expiresAt }) => {
      const counter = this.#counters.get(key);
      if (counter && counter.expiresAt > now) {
        counter.value += amount;
        return counter.value;
      }
      // A read (amount 0) of an absent or expired counter leaves no entry behind.
      if (amount === 0) {
        if (counter) this.#counters.delete(key);
        return 0;
      }
      this.#counters.set(key, { value: amount, expiresAt });
      return amount;
    });
  }
}
