import type { Coordinator, Storage } from '@chainlens/core';
import { PostgresCoordinator } from './coordinator.js';
import { type PostgresStorageOptions, resolveOptions } from './options.js';
import { PostgresStorage } from './postgres-storage.js';

export type { PostgresStorageLogger, PostgresStorageOptions } from './options.js';

/**
 * ChainLens storage on PostgreSQL. Validates `options` at once (a bad one throws a
 * `ConfigError` naming it); connects and migrates the schema in `init()`. Blocks are written
 * with one set-based statement per table in one transaction; totals and per-address stats are
 * kept as the chain is written, so no read counts rows; every read is served by an index.
 *
 * @example
 * import { postgresStorage } from '@chainlens/storage-postgres';
 *
 * const storage = postgresStorage({ connectionString: process.env.DATABASE_URL!, schema: 'chainlens' });
 * await storage.init();
 * await storage.writeBlock(bundle);
 * await storage.close();
 */
export function postgresStorage(options: PostgresStorageOptions): Storage {
  return new PostgresStorage(resolveOptions(options));
}

/**
 * Runs several explorer instances on one Postgres schema as one explorer: exactly one indexes
 * (a session advisory lock; when its holder dies another takes over on its next try, every
 * `cluster.leaseRetryMs`), and every instance hears the indexer's events (LISTEN/NOTIFY).
 * Takes the same options as {@link postgresStorage}.
 *
 * @example
 * const options = { connectionString: process.env.DATABASE_URL!, schema: 'chainlens' };
 * const explorer = await createExplorer({ rpcUrl, storage: postgresStorage(options), coordinator: postgresCoordinator(options) });
 */
export function postgresCoordinator(options: PostgresStorageOptions): Coordinator {
  return new PostgresCoordinator(resolveOptions(options));
}
