import { memoryStorage } from '@chainlens/storage-memory';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import type { ExplorerConfig } from '../config.js';
import { createExplorer, type Explorer } from '../explorer.js';
import { asText, type HttpRequest } from '../http/index.js';
import { startNodeRelay, waitFor } from '@chainlens/testing';

const PASSWORD = 'a long enough passphrase for tests';
/** Between scrapes while waiting: every scrape spends the admin account's 1,000 requests a minute. */
const SCRAPE_MS = 100;

describe('GET /metrics and request logs', () => {
  let chain: TestChain;
  let explorer: Explorer;
  const lines: Record<string, unknown>[] = [];
  const explorers: Explorer[] = [];

  async function ownExplorer(config: Partial<ExplorerConfig> = {}): Promise<Explorer> {
    const own = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: memoryStorage(),
      logger: pino({ level: 'silent' }),
      indexer: { pollIntervalMs: 20, retryBaseMs: 20 },
      ...config,
    });
    explorers.push(own);
    return own;
  }

  const get = async (target: Explorer, url: string, headers: HttpRequest['headers'] = {}) => asText(await target.kernel.handle({ method: 'GET', url, headers, ip: '10.0.0.1' }));
  const post = async (target: Explorer, url: string, body: unknown, headers: HttpRequest['headers'] = {}) =>
    asText(await target.kernel.handle({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, ip: '10.0.0.1', rawBody: JSON.stringify(body) }));

  /** An API key of an admin: `/metrics` asks for the admin scope by default. */
  async function adminKey(target: Explorer): Promise<string> {
    const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
    const registered = JSON.parse((await post(target, '/api/v1/auth/register', { email, password: PASSWORD, name: 'Admin' })).body);
    await target.users.setRoles(registered.result.id, ['user', 'admin']);
    const token = JSON.parse((await post(target, '/api/v1/auth/login', { email, password: PASSWORD })).body).result.access_token as string;
    const key = await post(target, '/api/v1/auth/api-keys', { name: 'scraper', scopes: ['read', 'admin'] }, { authorization: `Bearer ${token}` });
    return JSON.parse(key.body).result.key as string;
  }

  /** The value of one series in a Prometheus text answer, or null when absent. */
  function series(text: string, name: string, labels = ''): number | null {
    const prefix = labels ? `${name}{${labels}} ` : `${name} `;
    const line = text.split('\n').find((l) => l.startsWith(prefix));
    return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
  }

  beforeAll(async () => {
    chain = await createTestChain();
    explorer = await ownExplorer({ logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }) });
    await explorer.start();
  });
  afterAll(async () => {
    await Promise.all(explorers.map((e) => e.close()));
    await chain.close();
  });

  it('is refused to anonymous callers and served in Prometheus text to an admin key by default', async () => {
    const anonymous = await get(explorer, '/metrics');
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toEqual({ status: '0', message: 'Unauthorized', result: null });
    const key = await adminKey(explorer);
    const answer = await get(explorer, '/metrics', { 'x-api-key': key });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(answer.body).toContain('# TYPE chainlens_http_request_duration_seconds histogram');
    expect(answer.body).toContain('process_cpu_user_seconds_total');
  });

  it('counts requests and their latency per route pattern and status, not per raw URL', async () => {
    const key = await adminKey(explorer);
    const hash = `0x${'ab'.repeat(32)}`;
    expect((await get(explorer, `/api/v1/transaction/${hash}`)).status).toBe(404);
    expect((await get(explorer, `/api/v1/transaction/${hash.replace('ab', 'cd')}`)).status).toBe(404);
    expect((await get(explorer, '/api/v1/block/getblock?blockno=nope')).status).toBe(400);
    expect((await get(explorer, '/no/such/route?apikey=x')).status).toBe(404);
    const text = (await get(explorer, '/metrics', { 'x-api-key': key })).body;
    expect(series(text, 'chainlens_http_requests_total', 'method="GET",route="/api/v1/transaction/:hash",status="404"')).toBe(2);
    expect(series(text, 'chainlens_http_requests_total', 'method="GET",route="/api/v1/block/getblock",status="400"')).toBe(1);
    expect(series(text, 'chainlens_http_requests_total', 'method="GET",route="unmatched",status="404"')).toBe(1);
    expect(series(text, 'chainlens_http_request_duration_seconds_count', 'method="GET",route="/api/v1/transaction/:hash"')).toBe(2);
    expect(text).not.toContain(hash);
  });

  it('shows the indexer head, indexed block, lag and rate, how far traces are stored, and counts a reorg', async () => {
    const key = await adminKey(explorer);
    await chain.walletClient.sendTransaction({ to: chain.accounts[1]!.address, value: 1n });
    const head = await chain.publicClient.getBlockNumber();
    const scrape = async () => (await get(explorer, '/metrics', { 'x-api-key': key })).body;
    let text = await waitFor(async () => {
      const body = await scrape();
      return series(body, 'chainlens_indexer_indexed_block') === Number(head) && series(body, 'chainlens_indexer_traced_block') === Number(head) ? body : null;
    }, 'the indexed and traced blocks to reach the head', 20_000, SCRAPE_MS);
    expect(series(text, 'chainlens_indexer_head_block')).toBe(Number(head));
    expect(series(text, 'chainlens_indexer_lag_blocks')).toBe(0);
    expect(series(text, 'chainlens_indexer_trace_lag_blocks')).toBe(0);
    expect(series(text, 'chainlens_indexer_blocks_total')).toBeGreaterThanOrEqual(Number(head));
    expect(series(text, 'chainlens_reorgs_total')).toBe(0);

    // A branch the indexer has seen is replaced by a longer one: one reorg.
    const snapshot = await chain.publicClient.request({ method: 'evm_snapshot' } as never);
    await chain.walletClient.sendTransaction({ to: chain.accounts[2]!.address, value: 2n });
    await waitFor(async () => series(await scrape(), 'chainlens_indexer_indexed_block') === Number(head) + 1, 'the first branch to be indexed', 20_000, SCRAPE_MS);
    await chain.publicClient.request({ method: 'evm_revert', params: [snapshot] } as never);
    for (const value of [3n, 4n]) await chain.walletClient.sendTransaction({ to: chain.accounts[3]!.address, value });
    text = await waitFor(async () => {
      const body = await scrape();
      return series(body, 'chainlens_reorgs_total') === 1 && series(body, 'chainlens_indexer_indexed_block') === Number(head) + 2 ? body : null;
    }, 'the reorg to be counted and the new branch indexed', 20_000, SCRAPE_MS);
    expect(series(text, 'chainlens_reorg_removed_blocks_total')).toBe(1);
  });

  it('has no trace series where nothing is traced: traces off, or a node that does not trace', async () => {
    const relay = await startNodeRelay(chain.rpcUrl);
    relay.refused.add('trace_block').add('debug_traceBlockByHash');
    const untraced = await ownExplorer({ indexer: { pollIntervalMs: 20, retryBaseMs: 20, traces: false } });
    const nonTracing = await ownExplorer({ rpcUrl: relay.url });
    await Promise.all([untraced.start(), nonTracing.start()]);
    const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    try {
      for (const own of [untraced, nonTracing]) {
        const text = await waitFor(async () => {
          const body = await own.metrics!.render();
          return series(body, 'chainlens_indexer_indexed_block') === Number(head) && own.indexer.status.tracing?.support !== 'unknown' ? body : null;
        }, 'the head indexed, and tracing off or the node found not to trace', 20_000, SCRAPE_MS);
        expect(series(text, 'chainlens_indexer_lag_blocks')).toBe(0);
        expect(series(text, 'chainlens_indexer_traced_block')).toBeNull();
        expect(series(text, 'chainlens_indexer_trace_lag_blocks')).toBeNull();
      }
    } finally {
      await relay.close();
    }
  });

  it('counts requests the rate-limit tiers refuse', async () => {
    const limited = await ownExplorer({ rateLimits: { anonymous: { perMinute: 2, perDay: 100 } }, metrics: { scope: null } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(limited, '/api/v1/block/getblock?blockno=nope')).status);
    expect(statuses).toEqual([400, 400, 429, 429]);
    // The scrape itself is anonymous and refused too, once more.
    const refused = await get(limited, '/metrics');
    expect(refused.status).toBe(429);
    const text = await limited.metrics!.render();
    expect(series(text, 'chainlens_rate_limit_rejections_total')).toBe(3);
  });

  it('is public with scope null and absent with metrics disabled', async () => {
    const open = await ownExplorer({ metrics: { scope: null } });
    expect((await get(open, '/metrics')).status).toBe(200);
    const off = await ownExplorer({ metrics: { enabled: false } });
    expect(off.metrics).toBeNull();
    const answer = await get(off, '/metrics');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).message).toBe('Error! Endpoint not found');
  });

  it('logs one line per request with its id, route pattern, status and duration, and sends the id back', async () => {
    const sent = await get(explorer, '/api/v1/health', { 'x-request-id': 'trace-42' });
    expect(sent.headers['x-request-id']).toBe('trace-42');
    const generated = await get(explorer, '/api/v1/block/getblock?blockno=latest');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // A forged id (a line break, too long) is replaced, so it cannot forge log lines.
    const forged = await get(explorer, '/api/v1/health', { 'x-request-id': 'x\n{"level":50}' });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const requestLines = lines.filter((line) => line.msg === 'request answered');
    expect(requestLines.find((line) => line.reqId === 'trace-42')).toMatchObject({ level: 30, module: 'http', method: 'GET', route: '/api/v1/health', status: 200, durationMs: expect.any(Number) });
    expect(requestLines.find((line) => line.reqId === generated.headers['x-request-id'])).toMatchObject({ route: '/api/v1/block/getblock', status: 200 });
  });
});
