import type { Storage } from '../storage.js';

/**
 * Opening, closing and probing a backend, and where reads that must see every write go.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface StorageLifecycle {
  /**
   * Where this storage's reads may lag its own writes (it reads from replicas): a storage on the
   * same data whose reads see every write, for what must read its own writes (the indexers,
   * accounts and keys, counters, jobs). Absent where reads never lag. Closing it closes nothing.
   */
  readonly primary?: Storage;
  /** Prepares the backend (migrations, pools). Idempotent. Called by `explorer.start()`. */
  init(): Promise<void>;
  /** Releases every resource. Idempotent. */
  close(): Promise<void>;
  /** Cheap liveness probe for `/health`: resolves when the backend answers, throws otherwise. */
  ping(): Promise<void>;
}
