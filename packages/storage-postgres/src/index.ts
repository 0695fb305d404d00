import type { Storage } from '@chainlens/core';
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
