import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL answering the test database's connection string (storage-postgres's `test/global-setup.ts` serves it). */
    chainlensPostgresBroker?: string;
  }
}

let url: Promise<string> | undefined;

/**
 * The test database every package's Postgres tests share: TEST_DATABASE_URL, else the run's
 * embedded server (the root vitest config registers storage-postgres's `test/global-setup.ts`).
 */
export function testDatabaseUrl(): Promise<string> {
  url ??= (async () => {
    if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
    const broker = inject('chainlensPostgresBroker');
    if (!broker) throw new Error('no test database: set TEST_DATABASE_URL or register packages/storage-postgres/test/global-setup.ts in vitest');
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
