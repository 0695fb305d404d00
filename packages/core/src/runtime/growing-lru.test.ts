import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { growing } from './growing-lru.js';

describe('growing', () => {
  it('bounds a cache by its entries as `max` does, evicting the least recently used', () => {
    const cache = new LRUCache<string, number>(growing(3));
    cache.set('a', 1).set('b', 2).set('c', 3);
    cache.get('a');
    cache.set('d', 4);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    expect(cache.size).toBe(3);
  });

  it('allocates no slots up front', () => {
    // lru-cache given `max` sizes its key list at once; grown, it holds what was set.
    const cache = new LRUCache<string, number>(growing(100_000));
    cache.set('a', 1);
    expect(cache.size).toBe(1);
    expect(cache.max).toBe(0);
  });
});
