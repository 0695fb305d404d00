import { describe, expect } from 'vitest';
import type { CounterHit, Storage } from '@chainlens/core';
import { makeChain } from '../fixtures.js';
import { T0 } from './account-fixtures.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

/**
 * Times of the suite: `now` values and expiries are fixed points in 2023, so a backend that
 * judged expiry by the wall clock instead of `now` would see every counter as expired.
 */
const MINUTE = 60_000;
const END = T0 + MINUTE;

/** A hit on `key` expiring at {@link END} unless told otherwise. */
function hit(key: string, amount: number, expiresAt = END): CounterHit {
  return { key, amount, expiresAt };
}

/** The value of one counter after adding `amount` at `now`. */
async function hitOne(storage: Storage, key: string, amount: number, now = T0, expiresAt = END): Promise<number> {
  const [value] = await storage.hitCounters([hit(key, amount, expiresAt)], now);
  return value!;
}

/** hitCounters. */
export function counterTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('hitCounters', () => {
    test('a new counter starts at the amount and later hits add to it', async (storage) => {
      expect(await hitOne(storage, 'rate:ip', 1)).toBe(1);
      expect(await hitOne(storage, 'rate:ip', 1, T0 + 1)).toBe(2);
      expect(await hitOne(storage, 'rate:ip', 5, T0 + 2)).toBe(7);
      expect(await hitOne(storage, 'login:ada', 3)).toBe(3);
    });

    test('amount 0 reads a counter without changing it, and reads 0 for an absent one', async (storage) => {
      expect(await hitOne(storage, 'absent', 0)).toBe(0);
      expect(await hitOne(storage, 'absent', 0)).toBe(0);
      expect(await hitOne(storage, 'absent', 2)).toBe(2);
      expect(await hitOne(storage, 'absent', 0)).toBe(2);
      expect(await hitOne(storage, 'absent', 0)).toBe(2);
      expect(await hitOne(storage, 'absent', 1)).toBe(3);
    });

    test('an empty call resolves an empty list', async (storage) => {
      expect(await storage.hitCounters([], T0)).toEqual([]);
    });

    test('resolves the values in input order, reads and hits mixed', async (storage) => {
      await storage.hitCounters([hit('c', 30), hit('a', 10)], T0);
      const values = await storage.hitCounters([hit('d', 4), hit('a', 1), hit('z', 0), hit('c', 0), hit('b', 2)], T0);
      expect(values).toEqual([4, 11, 0, 30, 2]);
      expect(await storage.hitCounters([hit('b', 0), hit('d', 0), hit('c', 0), hit('a', 0)], T0)).toEqual([2, 4, 30, 11]);
    });

    test('keys are independent, however alike', async (storage) => {
      const keys = ['k', 'K', 'k:1', 'k:10', 'k ', ''];
      const values = await storage.hitCounters(keys.map((key, i) => hit(key, i + 1)), T0);
      expect(values).toEqual([1, 2, 3, 4, 5, 6]);
      expect(await hitOne(storage, 'k', 10)).toBe(11);
      expect(await storage.hitCounters(keys.map((key) => hit(key, 0)), T0)).toEqual([11, 2, 3, 4, 5, 6]);
    });

    test('any string is a key', async (storage) => {
      const keys = ['rate:minute:ip:::1:29678400', '{"a,b"}', 'back\\slash', "it's", 'NULL', 'ключ 🔑', 'tab\tnew\nline'];
      expect(await storage.hitCounters(keys.map((key, i) => hit(key, i + 1)), T0)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await storage.hitCounters(keys.map((key) => hit(key, 1)), T0)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    });

    test('values beyond 32 bits are exact', async (storage) => {
      expect(await hitOne(storage, 'bytes', 3_000_000_000)).toBe(3_000_000_000);
      expect(await hitOne(storage, 'bytes', 3_000_000_001)).toBe(6_000_000_001);
    });

    test('a counter is live before its expiresAt and absent from it on', async (storage) => {
      await hitOne(storage, 'window', 4);
      expect(await hitOne(storage, 'window', 0, END - 1)).toBe(4);
      expect(await hitOne(storage, 'window', 0, END)).toBe(0);
      expect(await hitOne(storage, 'window', 0, END + MINUTE)).toBe(0);
    });

    test('the first hit from expiresAt on starts the counter again, with the new expiry', async (storage) => {
      await hitOne(storage, 'window', 4);
      const next = END + MINUTE;
      expect(await hitOne(storage, 'window', 2, END, next)).toBe(2);
      expect(await hitOne(storage, 'window', 1, next - 1, next)).toBe(3);
      expect(await hitOne(storage, 'window', 0, next)).toBe(0);
    });

    test('a hit well after expiresAt also starts again, and expiry is per counter', async (storage) => {
      await storage.hitCounters([hit('short', 5, T0 + 10), hit('long', 5, T0 + 10 * MINUTE)], T0);
      const later = T0 + 5 * MINUTE;
      expect(await storage.hitCounters([hit('short', 1, later + MINUTE), hit('long', 1, later + MINUTE)], later)).toEqual([1, 6]);
    });

    test('200 concurrent hits on one key all count, each seeing its own value', async (storage) => {
      const values = await Promise.all(Array.from({ length: 200 }, () => hitOne(storage, 'busy', 1)));
      expect(values.sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(await hitOne(storage, 'busy', 0)).toBe(200);
    });

    test('concurrent calls listing the same keys in opposite orders all succeed', async (storage) => {
      const calls = Array.from({ length: 40 }, (_, i) =>
        storage.hitCounters(i % 2 === 0 ? [hit('a', 1), hit('b', 2)] : [hit('b', 2), hit('a', 1)], T0),
      );
      const results = await Promise.all(calls);
      expect(results.every((values) => values.length === 2)).toBe(true);
      expect(await storage.hitCounters([hit('a', 0), hit('b', 0)], T0)).toEqual([40, 80]);
    });

    test('rollbackTo leaves counters alone', async (storage) => {
      await storage.hitCounters([hit('rate:ip', 3), hit('login:ada', 1)], T0);
      await writeChain(storage, makeChain({ blocks: 3, txPerBlock: 2 }));
      await storage.rollbackTo(-1n);
      expect(await storage.getCursor()).toBeNull();
      expect(await storage.hitCounters([hit('rate:ip', 0), hit('login:ada', 1)], T0)).toEqual([3, 2]);
    });
  });
}
