import type { LRUCache } from 'lru-cache';

/**
 * Options of an LRU cache of at most `max` entries whose memory grows with what it holds. Given
 * `max`, lru-cache allocates five arrays of `max` slots at once (about 2.8 MB at 100,000, held
 * from start-up whether used or not, and walked by every full collection); bounded instead by a
 * size of one per entry, it evicts alike: the least recently used once `max` entries are held.
 */
export function growing<K extends {}, V extends {}>(max: number): LRUCache.Options<K, V, unknown> {
  return { maxSize: max, sizeCalculation: oneEntry };
}

const oneEntry = () => 1;
