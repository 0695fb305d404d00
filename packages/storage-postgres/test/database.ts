import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { createExplorer, type Explorer, type ExplorerConfig, type Storage } from '@chainlens/core';
import { postgresCoordinator, postgresStorage, type PostgresStorageOptions } from '../src/index.js';

let url: Promise<string> | undefined;

/** The test database: TEST_DATABASE_URL, else the run's embedded server (see global-setup.ts). */
export function testDatabaseUrl(): Promise<string> {
  url ??= (async () => {
    if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
    const broker = inject('chainlensPostgresBroker');
    if (!broker) throw new Error('no test database: set TEST_DATABASE_URL or register test/global-setup.ts in vitest');
    const response = await fetch(broker);
    const body = await response.text();
    if (!response.ok) throw new Error(body);
    return body;
  })();
  return url;
}

/**
 * Fresh schemas for one test file; `afterAll` drops every one it handed out. Call at the top
 * level of the file.
 */
export function testSchemas(): { next(): string } {
  const created: string[] = [];
  afterAll(async () => {
    if (created.length === 0) return;
    // One schema per statement: dropping them all at once takes a lock per table and index and
    // runs out of the server's lock table on a suite's worth of schemas.
    await withClient(async (client) => {
      for (const schema of created) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    });
  });
  return {
    next() {
      const schema = `test_${randomBytes(6).toString('hex')}`;
      created.push(schema);
      return schema;
    },
  };
}

/** A storage on `schema` of the test database (not initialised). */
export async function createStorage(schema: string, options: Partial<PostgresStorageOptions> = {}): Promise<Storage> {
  return postgresStorage({ connectionString: await testDatabaseUrl(), schema, ...options });
}

/** Runs `work` on a plain pg client of the test database (global type parsers). */
export async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: await testDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** An explorer of a cluster: Postgres storage and coordination on `schema`, following the node at `rpcUrl`. */
export async function clusterInstance(rpcUrl: string, schema: string, config: Partial<ExplorerConfig> = {}): Promise<Explorer> {
  const options = { connectionString: await testDatabaseUrl(), schema };
  return createExplorer({ rpcUrl, storage: postgresStorage(options), coordinator: postgresCoordinator(options), logLevel: 'silent', ...config });
}
