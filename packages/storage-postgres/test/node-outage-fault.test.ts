import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asText, createExplorer, type Explorer } from '@chainlens/core';
import { fillBlocks, startAnvil, type AnvilInstance } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../src/index.js';
import { testDatabaseUrl, testSchemas } from './database.js';
import { chainHead, contents, cursorOf, indexUninterrupted, wholeThrough } from './stored-chain.js';

const schemas = testSchemas();

/** What the kernel answers for a GET, decoded (the API as served). */
async function apiGet(explorer: Explorer, url: string): Promise<{ status: number; body: { status: string; message: string; result: any } }> {
  const response = await explorer.kernel.handle({ method: 'GET', url, headers: {}, ip: '127.0.0.1' });
  return { status: response.status, body: JSON.parse(asText(response).body) };
}

describe('upstream node outage during ingest', () => {
  let dir = '';
  let node: AnvilInstance | undefined;
  let head = -1n;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chainlens-node-outage-'));
    // --state: the node dumps its chain when stopped and loads it when started again.
    node = await startAnvil({ statePath: join(dir, 'state.json'), args: ['--gas-limit', '100000000'] });
    await fillBlocks({ rpcUrl: node.rpcUrl }, { blocks: 400, txPerBlock: 10 });
    head = await chainHead(node.rpcUrl);
  });
  afterAll(async () => {
    await node?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('stopped mid-ingest and started again: backs off, reports degraded then ok, keeps serving reads, and ends identical to an uninterrupted run', async () => {
    const schema = schemas.next();
    const failures: { failures: number; time: number }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void collectFailure(line, failures) });
    const explorer = await createExplorer({
      rpcUrl: node!.rpcUrl,
      storage: postgresStorage({ connectionString: await testDatabaseUrl(), schema }),
      logger,
      indexer: { pollIntervalMs: 50, retryBaseMs: 20, maxBackoffMs: 400, concurrency: 2 },
      http: { upstreamTimeoutMs: 2_000 },
      rateLimits: { enabled: false },
    });
    try {
      await explorer.start();
      await waitFor(async () => (await cursorOf(schema)) >= 60n, 'block 60', 30_000);
      await node!.stop();
      const stoppedAt = await cursorOf(schema);
      expect(stoppedAt).toBeLessThan(head);

      // Down: degraded health, stored reads still served, node-bound reads a clear 503.
      const degraded = await waitFor(async () => {
        const answer = await apiGet(explorer, '/api/v1/health');
        return answer.body.result.status === 'degraded' ? answer : null;
      }, 'degraded health');
      expect(degraded.status).toBe(200);
      expect(degraded.body.result).toMatchObject({ latestBlock: null, storage: 'ok' });
      const block = await apiGet(explorer, '/api/v1/block/getblock?blockno=30');
      expect(block.status).toBe(200);
      const [hash] = block.body.result.transactions as string[];
      expect((await apiGet(explorer, `/api/v1/transaction/${hash}`)).body.result.hash).toBe(hash);
      const balance = await apiGet(explorer, `/api/v1/account/balance?address=0x${'1'.repeat(40)}`);
      expect(balance).toEqual({ status: 503, body: { status: '0', message: 'Error! Upstream node unavailable', result: null } });

      // Ten failed attempts take at least the doubling delays (20+40+…+400 ms), not ten polls.
      await waitFor(() => failures.some((entry) => entry.failures >= 10), 'ten failed attempts', 30_000);
      const first = failures.find((entry) => entry.failures === 1)!;
      const tenth = failures.find((entry) => entry.failures === 10)!;
      expect(tenth.time - first.time).toBeGreaterThanOrEqual(20 + 40 + 80 + 160 + 320 + 400 * 3);
      expect(explorer.indexer.status).toMatchObject({ running: true, upstream: 'down' });
      expect(await cursorOf(schema)).toBe(stoppedAt);

      await node!.restart();
      await waitFor(() => wholeThrough(schema, head), 'indexing to reach the head', 60_000);
      await waitFor(async () => (await apiGet(explorer, '/api/v1/health')).body.result.status === 'ok', 'healthy again');
      expect(explorer.indexer.status).toMatchObject({ running: true, upstream: 'ok', lastError: null });
    } finally {
      await explorer.close();
    }

    const clean = schemas.next();
    await indexUninterrupted(node!.rpcUrl, clean, head);
    const [disturbed, reference] = await Promise.all([contents(schema), contents(clean)]);
    expect(Object.keys(disturbed)).toEqual(Object.keys(reference));
    expect(disturbed.transactions).toHaveLength(4_000);
    for (const table of Object.keys(reference)) expect(disturbed[table], table).toEqual(reference[table]);
  }, 180_000);
});

/** Records the indexer's "retrying with backoff" log lines: how many failures so far, and when. */
function collectFailure(line: string, into: { failures: number; time: number }[]): void {
  const entry = JSON.parse(line) as { module?: string; failures?: number; time: number };
  if (entry.module === 'indexer' && typeof entry.failures === 'number') into.push({ failures: entry.failures, time: entry.time });
}
