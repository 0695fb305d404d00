import { createExplorer, type Explorer, type ExplorerConfig, type Storage } from '@chainlens/core';
import { testDatabaseUrl } from '@chainlens/testing';
import { postgresCoordinator, postgresStorage, type PostgresStorageOptions } from '../src/index.js';

// The database helpers every package's tests share live in @chainlens/testing; this package's tests take them from here too.
export { testDatabaseUrl, testSchemas, withClient } from '@chainlens/testing';

/** A storage on `schema` of the test database (not initialised). */
export async function createStorage(schema: string, options: Partial<PostgresStorageOptions> = {}): Promise<Storage> {
  return postgresStorage({ connectionString: await testDatabaseUrl(), schema, ...options });
}

/** An explorer of a cluster: Postgres storage and coordination on `schema`, following the node at `rpcUrl`. */
export async function clusterInstance(rpcUrl: string, schema: string, config: Partial<ExplorerConfig> = {}): Promise<Explorer> {
  const options = { connectionString: await testDatabaseUrl(), schema };
  return createExplorer({ rpcUrl, storage: postgresStorage(options), coordinator: postgresCoordinator(options), logLevel: 'silent', ...config });
}
