import type { AddressInfo } from 'node:net';
import { chainlens } from '@chainlens/adapter-fastify';
import { createExplorer, handleClientError } from '@chainlens/core';
import { waitFor } from '@chainlens/testing';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { postgresStorage } from '../src/index.js';
import { namedSessions, terminateBackends } from './backends.js';
import { testDatabaseUrl, testSchemas } from './database.js';
import { contents, cursorOf, filledChain, indexUninterrupted, wholeThrough } from './stored-chain.js';
import { startTcpProxy } from './tcp-proxy.js';

const schemas = testSchemas();

describe('indexing on Postgres through lost connections', () => {
  const chain = filledChain();

  it('keeps indexing when its connections are terminated, answers reads with envelopes while the database is away, and ends identical to an uninterrupted run', async () => {
    const proxy = await startTcpProxy(await testDatabaseUrl());
    const sessions = namedSessions(proxy.url, 'lost');
    const schema = schemas.next();
    const explorer = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: postgresStorage({ connectionString: sessions.url, schema }),
      logLevel: 'silent',
      indexer: { pollIntervalMs: 50 },
      // The rate limiter's counters would be the only rows an uninterrupted run lacks.
      rateLimits: { enabled: false },
    });
    const app = Fastify({ clientErrorHandler: handleClientError });
    await app.register(chainlens, { explorer });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // A request that hangs fails the test here instead of timing it out.
    const read = (path: string) => fetch(`${base}${path}`, { signal: AbortSignal.timeout(5_000) });
    try {
      await explorer.start();
      const terminatedAt: bigint[] = [];
      for (let round = 1; round <= 5; round++) {
        await waitFor(async () => (await cursorOf(schema)) >= BigInt(round * 40), `block ${round * 40}`, 30_000);
        expect(await terminateBackends(sessions.name)).toBeGreaterThan(0);
        terminatedAt.push(await cursorOf(schema));
      }
      expect(terminatedAt.every((cursor) => cursor < chain.head)).toBe(true);

      const [hash] = await explorer.storage.getBlockTransactionHashes(1n);
      // Never answered from the response cache: each request reads storage.
      const logs = `/api/v1/transaction/${hash}/logs`;
      expect((await read(logs)).status).toBe(200);
      proxy.refuse();
      expect(await terminateBackends(sessions.name)).toBeGreaterThan(0);
      const failed = await read(logs);
      expect(failed.status).toBe(500);
      expect(await failed.json()).toEqual({ status: '0', message: 'Error! Internal server error', result: null });
      const health = await read('/api/v1/health');
      expect(health.status).toBe(503);
      expect(((await health.json()) as { result: unknown }).result).toMatchObject({ status: 'down', storage: 'down' });
      await waitFor(() => explorer.indexer.status.lastError !== null, 'the indexer to meet the outage');
      expect(await cursorOf(schema)).toBeLessThan(chain.head);

      proxy.accept();
      await waitFor(async () => (await read(logs)).status === 200, 'reads to succeed again');
      await waitFor(() => wholeThrough(schema, chain.head), 'indexing to reach the head', 60_000);
      expect(explorer.indexer.status.running).toBe(true);
    } finally {
      await app.close();
      await explorer.close();
      await proxy.close();
    }

    const clean = schemas.next();
    await indexUninterrupted(chain.rpcUrl, clean, chain.head);
    const [disturbed, reference] = await Promise.all([contents(schema), contents(clean)]);
    expect(Object.keys(disturbed)).toEqual(Object.keys(reference));
    expect(disturbed.transactions).toHaveLength(3_000);
    for (const table of Object.keys(reference)) expect(disturbed[table], table).toEqual(reference[table]);
  }, 180_000);
});
