import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { chainlens } from '@chainlens/adapter-fastify';
import { handleClientError, type Explorer, type ExplorerConfig } from '@chainlens/core';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { clusterInstance, testSchemas } from './database.js';

const schemas = testSchemas();

/** A decoded HTTP answer. */
interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** An explorer instance served through the Fastify adapter. */
interface Instance {
  explorer: Explorer;
  /** Where its sockets are: `ws://127.0.0.1:PORT`. */
  wsBase: string;
  request(method: string, path: string, headers?: Record<string, string>, body?: unknown): Promise<Answer>;
}

/** How long another instance may take to act on a change's bus notice: half the 1 s a verified key is kept. */
const NOTICE_MS = 500;

describe('accounts, keys and rate limits across instances on one Postgres schema', () => {
  let chain: TestChain;
  const closers: (() => Promise<void> | void)[] = [];
  beforeAll(async () => {
    chain = await createTestChain();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  afterAll(() => chain?.close());

  async function instance(schema: string, config: Partial<ExplorerConfig> = {}): Promise<Instance> {
    const explorer = await clusterInstance(chain.rpcUrl, schema, config);
    const app = Fastify({ clientErrorHandler: handleClientError });
    await app.register(chainlens, { explorer });
    await app.listen({ host: '127.0.0.1', port: 0 });
    closers.push(async () => {
      await app.close();
      await explorer.close();
    });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    return {
      explorer,
      wsBase: base.replace(/^http/, 'ws'),
      async request(method, path, headers = {}, body) {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, headers: response.headers, body: await response.json() };
      },
    };
  }

  const expectRefused = (answer: Answer, status: number, message: string) => {
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ status: '0', message, result: null });
  };

  it('a JWT and API keys from one instance work on the other; a revoked key and a deactivated user are refused there on the very next request', async () => {
    const schema = schemas.next();
    // One secret on every instance, as the configuration reference asks of a cluster.
    const auth = { jwtSecret: randomBytes(32).toString('hex') };
    const [a, b] = [await instance(schema, { auth }), await instance(schema, { auth })];
    await Promise.all([a.explorer.start(), b.explorer.start()]);
    const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    await waitFor(async () => (await b.explorer.storage.getCursor())?.number === head, 'indexing to the head');

    const email = `cluster-${randomUUID()}@example.com`;
    const password = 'a long enough passphrase';
    const registered = await a.request('POST', '/api/v1/auth/register', {}, { email, password, name: 'Clustered' });
    expect(registered.status).toBe(200);
    const login = await a.request('POST', '/api/v1/auth/login', {}, { email, password });
    const jwt = { authorization: `Bearer ${login.body.result.access_token as string}` };
    const before = await b.request('GET', '/api/v1/auth/api-keys', jwt);
    expect(before.status).toBe(200);
    expect(before.body.result).toEqual([]);

    const createKey = async (name: string) => (await a.request('POST', '/api/v1/auth/api-keys', jwt, { name })).body.result as { id: string; key: string };
    const [revoked, kept] = [await createKey('revoked'), await createKey('kept')];
    const listed = await b.request('GET', '/api/v1/auth/api-keys', jwt);
    expect(listed.body.result.map((key: { id: string }) => key.id)).toEqual([kept.id, revoked.id]);
    // getblock is answered from B's response cache the second time; credentials are checked anyway.
    const block = (key: string) => b.request('GET', '/api/v1/block/getblock?blockno=latest', { 'x-api-key': key });
    for (const key of [revoked, kept, revoked]) expect((await block(key.key)).status).toBe(200);

    expect((await a.request('DELETE', `/api/v1/auth/api-keys/${revoked.id}`, jwt)).status).toBe(200);
    expectRefused(await block(revoked.key), 401, 'Invalid API key');
    expect((await block(kept.key)).status).toBe(200);

    expect(await a.explorer.users.setActive(registered.body.result.id, false)).not.toBeNull();
    expectRefused(await b.request('GET', '/api/v1/auth/api-keys', jwt), 401, 'Unauthorized');
    expectRefused(await block(kept.key), 401, 'Invalid API key');
  });

  it('a key verified on one instance follows changes made on the other at once: a new tier, its own limit, its revocation', async () => {
    const schema = schemas.next();
    const auth = { jwtSecret: randomBytes(32).toString('hex') };
    const [a, b] = [await instance(schema, { auth }), await instance(schema, { auth })];
    await Promise.all([a.explorer.start(), b.explorer.start()]);
    const email = `tier-${randomUUID()}@example.com`;
    const password = 'a long enough passphrase';
    const registered = await a.request('POST', '/api/v1/auth/register', {}, { email, password, name: 'Clustered' });
    const jwt = { authorization: `Bearer ${(await a.request('POST', '/api/v1/auth/login', {}, { email, password })).body.result.access_token as string}` };
    const key = (await a.request('POST', '/api/v1/auth/api-keys', jwt, { name: 'tiered' })).body.result as { id: string; key: string };
    const limitOnB = async () => (await b.request('GET', '/api/v1/nope', { 'x-api-key': key.key })).headers.get('x-ratelimit-limit');
    // Verified on B, then answered from what B keeps.
    const tier = await limitOnB();
    expect(await limitOnB()).toBe(tier);

    // B hears the change from the same bus notice A waited for, but on its own connection: allow
    // it half the second its kept key would otherwise hold, so the test fails without the notice.
    const onB = async (expected: string | null) => waitFor(async () => (await limitOnB()) === expected || null, `B to see the limit ${expected}`, NOTICE_MS, 10);
    await a.explorer.users.setRoles(registered.body.result.id, ['premium', 'user']);
    await onB('10000');
    await a.explorer.services.apiKeys.setRateLimit(key.id, 9);
    await onB('9');
    expect((await a.request('DELETE', `/api/v1/auth/api-keys/${key.id}`, jwt)).status).toBe(200);
    await waitFor(async () => (await b.request('GET', '/api/v1/nope', { 'x-api-key': key.key })).status === 401 || null, 'B to refuse the revoked key', NOTICE_MS, 10);
    expectRefused(await b.request('GET', '/api/v1/nope', { 'x-api-key': key.key }), 401, 'Invalid API key');
  });

  /** An open WebSocket client of `url` (speaking `protocol`); `closed` holds its close code and reason once it closes. */
  async function connected(url: string, protocol?: string) {
    const socket = new WebSocket(url, protocol);
    const state: { socket: WebSocket; closed: { code: number; reason: string } | null } = { socket, closed: null };
    socket.on('close', (code, reason) => {
      state.closed = { code, reason: reason.toString('utf8') };
    });
    closers.push(() => socket.terminate());
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return state;
  }

  it('a socket on one instance closes within seconds of its key’s revocation or its user’s deactivation on the other', async () => {
    const schema = schemas.next();
    const auth = { jwtSecret: randomBytes(32).toString('hex') };
    // No periodic check within the test: only the notice over the bus can close B's sockets in time.
    const sockets = { credentialCheckIntervalMs: 600_000 };
    const [a, b] = [await instance(schema, { auth, sockets }), await instance(schema, { auth, sockets })];
    await Promise.all([a.explorer.start(), b.explorer.start()]);

    const email = `sockets-${randomUUID()}@example.com`;
    const password = 'a long enough passphrase';
    const registered = await a.request('POST', '/api/v1/auth/register', {}, { email, password, name: 'Clustered' });
    const token = (await a.request('POST', '/api/v1/auth/login', {}, { email, password })).body.result.access_token as string;
    const jwt = { authorization: `Bearer ${token}` };
    const key = (await a.request('POST', '/api/v1/auth/api-keys', jwt, { name: 'socket' })).body.result as { id: string; key: string };
    const onKey = await connected(`${b.wsBase}/ws?apiKey=${key.key}`);
    const onToken = await connected(`${b.wsBase}/ws?token=${token}`);
    const onGraphql = await connected(`${b.wsBase}/graphql?token=${token}`, 'graphql-transport-ws');
    onGraphql.socket.send(JSON.stringify({ type: 'connection_init' }));

    expect((await a.request('DELETE', `/api/v1/auth/api-keys/${key.id}`, jwt)).status).toBe(200);
    expect(await waitFor(() => onKey.closed, 'the key’s socket on b to close', 3_000)).toEqual({ code: 4401, reason: 'Invalid API key' });
    expect(onToken.closed).toBeNull();

    await a.explorer.users.setActive(registered.body.result.id, false);
    for (const socket of [onToken, onGraphql]) expect(await waitFor(() => socket.closed, 'the token’s sockets on b to close', 3_000)).toEqual({ code: 4401, reason: 'Unauthorized' });
  });

  it('rate-limit counters are shared: an allowance of 6 a minute spent 3 on each instance refuses the next request on either', async () => {
    const schema = schemas.next();
    // One clock 30 s into a minute for both, so the window cannot roll over mid-test.
    const clock = () => 1_800_000_030_000;
    const rateLimits = { anonymous: { perMinute: 6, perDay: 1_000 } };
    const [a, b] = [await instance(schema, { clock, rateLimits }), await instance(schema, { clock, rateLimits })];
    const remaining: (string | null)[] = [];
    for (const api of [a, a, a, b, b, b]) {
      // Counts reach the other instance on the flush beat; a flush now stands for that beat.
      if (api === b && remaining.length === 3) await a.explorer.flushRateLimits();
      const answer = await api.request('GET', '/api/v1/nope');
      expect(answer.status).toBe(404);
      remaining.push(answer.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    await b.explorer.flushRateLimits();
    await a.explorer.flushRateLimits();
    for (const api of [a, b]) expectRefused(await api.request('GET', '/api/v1/nope'), 429, 'Max rate limit reached');
  });

  /** `count` requests to `api`, `parallel` at a time: how many were let through (404) and refused (429). */
  async function burst(api: Instance, count: number, parallel: number) {
    let sent = 0;
    const tally = { admitted: 0, refused: 0 };
    const worker = async () => {
      while (sent < count) {
        sent++;
        const { status } = await api.request('GET', '/api/v1/nope');
        if (status === 404) tally.admitted++;
        else if (status === 429) tally.refused++;
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    return tally;
  }

  it('batched counting over-admits by at most what the other instance counted since its last flush, never beyond N × the allowance', async () => {
    const schema = schemas.next();
    const clock = () => 1_800_000_030_000;
    // No beat within the test: the flushes are the test's, so the unflushed counts are known exactly.
    const rateLimits = { anonymous: { perMinute: 20, perDay: 1_000 }, flushIntervalMs: 10_000 };
    const [a, b] = [await instance(schema, { clock, rateLimits }), await instance(schema, { clock, rateLimits })];
    // A's first request writes through; its next 14 are held in A.
    expect(await burst(a, 15, 1)).toEqual({ admitted: 15, refused: 0 });
    // B sees only A's first: it admits 19 where the cluster had 5 left, 14 over (A's held counts), then refuses.
    expect(await burst(b, 25, 1)).toEqual({ admitted: 19, refused: 6 });
    // Once both have flushed, each holds the shared total and refuses.
    await a.explorer.flushRateLimits();
    await b.explorer.flushRateLimits();
    await a.explorer.flushRateLimits();
    for (const api of [a, b]) expectRefused(await api.request('GET', '/api/v1/nope'), 429, 'Max rate limit reached');
  });

  it('under concurrent load on two instances with the default beat, the cluster admits at least the allowance and at most twice it, and both refuse once the beat has passed', async () => {
    const schema = schemas.next();
    const clock = () => 1_800_000_030_000;
    const rateLimits = { anonymous: { perMinute: 50, perDay: 10_000 } };
    const [a, b] = [await instance(schema, { clock, rateLimits }), await instance(schema, { clock, rateLimits })];
    const [onA, onB] = await Promise.all([burst(a, 100, 8), burst(b, 100, 8)]);
    const admitted = onA.admitted + onB.admitted;
    expect(onA.admitted + onA.refused + onB.admitted + onB.refused).toBe(200);
    expect(admitted).toBeGreaterThanOrEqual(50);
    expect(admitted).toBeLessThanOrEqual(2 * 50);
    // Every count reached storage: after a beat each instance reads 200 and refuses.
    await waitFor(async () => (await a.request('GET', '/api/v1/nope')).status === 429 && (await b.request('GET', '/api/v1/nope')).status === 429, 'both instances to refuse', 5_000);
  });
});
