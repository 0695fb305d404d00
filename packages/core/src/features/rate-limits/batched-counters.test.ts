import { describe, expect, it } from 'vitest';
import type { CounterHit } from '../../storage/index.js';
import { BatchedCounters } from './batched-counters.js';

/** Counters as a storage keeps them, recording each call, and failing while `down`. */
function counterStorage() {
  const values = new Map<string, number>();
  const calls: CounterHit[][] = [];
  const storage = {
    down: false,
    calls,
    values,
    async hitCounters(hits: CounterHit[]): Promise<number[]> {
      if (storage.down) throw new Error('storage down');
      calls.push(hits);
      return hits.map((hit) => {
        const value = (values.get(hit.key) ?? 0) + hit.amount;
        values.set(hit.key, value);
        return value;
      });
    },
  };
  return storage;
}

const hit = (key: string, amount = 1): CounterHit => ({ key, amount, expiresAt: 2_000 });
const NOW = 1_000;

describe('BatchedCounters', () => {
  it('writes a counter’s first hit through, counts the next ones in memory at once, and adds them in one call a beat', async () => {
    const storage = counterStorage();
    const errors: unknown[] = [];
    const counters = new BatchedCounters(storage, { flushIntervalMs: 60_000, now: () => NOW, onFlushError: (error) => errors.push(error) });
    expect(await counters.hitCounters([hit('a'), hit('b', 2)], NOW)).toEqual([1, 2]);
    expect(counters.hitCounters([hit('a'), hit('b', 2)], NOW)).toEqual([2, 4]);
    expect(counters.hitCounters([hit('a')], NOW)).toEqual([3]);
    expect(storage.calls).toHaveLength(1);
    // Another instance's counts show after the beat, beside this one's.
    storage.values.set('a', storage.values.get('a')! + 10);
    await counters.flush();
    expect(storage.calls[1]).toEqual([hit('a', 2), hit('b', 2)]);
    expect(counters.hitCounters([hit('a')], NOW)).toEqual([14]);
    await counters.close();
    expect(storage.values.get('a')).toBe(14);
    expect(errors).toEqual([]);
  });

  it('keeps the counts of a failed flush and sends them on the next', async () => {
    const storage = counterStorage();
    const errors: unknown[] = [];
    const counters = new BatchedCounters(storage, { flushIntervalMs: 60_000, now: () => NOW, onFlushError: (error) => errors.push(error) });
    await counters.hitCounters([hit('a')], NOW);
    counters.hitCounters([hit('a', 3)], NOW);
    storage.down = true;
    await counters.flush();
    expect(errors).toHaveLength(1);
    expect(counters.hitCounters([hit('a')], NOW)).toEqual([5]);
    storage.down = false;
    await counters.close();
    expect(storage.values.get('a')).toBe(5);
  });

  it('counts concurrent first hits of one counter once each, and drops a counter whose window ended', async () => {
    const storage = counterStorage();
    let now = NOW;
    const counters = new BatchedCounters(storage, { flushIntervalMs: 60_000, now: () => now, onFlushError: () => {} });
    expect(await Promise.all([counters.hitCounters([hit('a')], now), counters.hitCounters([hit('a')], now)])).toEqual([[1], [2]]);
    now = 2_000;
    await counters.flush();
    // The window is over: its unsent count goes with it, and a hit starts from storage again.
    expect(storage.calls).toHaveLength(1);
    await counters.close();
  });
});
