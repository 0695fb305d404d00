import type { CounterHit } from '../account-records.js';

/**
 * Expiring counters shared by every instance on one storage: rate limits and throttles.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface CounterStorage {
  /**
   * Adds each hit's `amount` to its counter and resolves the counters' values after it, in input
   * order: rate limits and throttles, shared by every instance on one storage. A counter whose
   * `expiresAt` is at or before `now` (Unix ms) counts as absent (0). Each counter's update is
   * atomic: concurrent hits on one key all count. Keys are distinct within one call. A backend
   * may drop live counters to bound its memory (memory storage does, least recently used first),
   * never to grow them.
   */
  hitCounters(hits: CounterHit[], now: number): Promise<number[]>;
}
