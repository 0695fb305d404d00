import type { Storage } from '@chainlens/core';
import { createMemoryStorage, type MemoryStorageOptions } from './memory-storage.js';

export type { MemoryStorageOptions } from './memory-storage.js';

/**
 * ChainLens storage on in-process structures: no setup, nothing persisted across processes.
 * The default for demos, tests and benchmarks. Reads are O(1) lookups or O(log n + page) for
 * address listings; returned chain records are frozen, user and key records are copies.
 *
 * @example
 * import { memoryStorage } from '@chainlens/storage-memory';
 *
 * const storage = memoryStorage();
 * await storage.init();
 * await storage.writeBlock(bundle);
 */
export function memoryStorage(options?: MemoryStorageOptions): Storage {
  return createMemoryStorage(options);
}
