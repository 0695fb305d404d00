import { asText, createExplorer, type Explorer, type HttpRequest } from '@chainlens/core';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresCoordinator, postgresStorage } from '../src/index.js';
import { startReplicatedPostgres, type ReplicatedPostgres } from './replicated-postgres.js';

/**
 * Read replicas on a real streaming standby: chain reads and the served head come from the
 * replica; writes, and the reads that must see them, from the primary. Pausing the standby's
 * replay holds the replica at a block while the indexer goes on writing to the primary.
 */
let servers: ReplicatedPostgres;
let chain: TestChain;
const opened: Explorer[] = [];
let schemaCount = 0;

beforeAll(async () => {
  [servers, chain] = await Promise.all([startReplicatedPostgres(), createTestChain()]);
  await transfers(3);
}, 180_000);

afterEach(async () => {
  await servers.resumeReplay();
  for (const explorer of opened.splice(0)) await explorer.close();
});

afterAll(async () => {
  await chain?.close();
  await servers?.stop();
});

async function transfers(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const hash = await chain.walletClient.sendTransaction({ to: chain.accounts[1]!.address, value: 1_000n + BigInt(i) });
    await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  }
}

async function explorerOn(schema: string, indexing: boolean): Promise<Explorer> {
  const options = { connectionString: servers.primaryUrl, readConnectionStrings: [servers.replicaUrl], schema };
  const explorer = await createExplorer({
    rpcUrl: chain.rpcUrl,
    storage: postgresStorage(options),
    coordinator: postgresCoordinator(options),
    logger: pino({ level: 'silent' }),
    indexer: { enabled: indexing, pollIntervalMs: 20 },
    cluster: { leaseRetryMs: 100 },
    rateLimits: { enabled: false },
  });
  opened.push(explorer);
  await explorer.start();
  return explorer;
}

const call = async (explorer: Explorer, method: string, url: string, body?: unknown, headers: HttpRequest['headers'] = {}) => {
  const request: HttpRequest = { method, url, headers: { 'content-type': 'application/json', ...headers }, ip: '127.0.0.1', ...(body !== undefined && { rawBody: JSON.stringify(body) }) };
  const answer = asText(await explorer.kernel.handle(request));
  return { status: answer.status, body: JSON.parse(answer.body) as { status: string; result: any } };
};

/** The head an explorer serves, as REST answers it. */
const servedHead = async (explorer: Explorer) => BigInt((await call(explorer, 'GET', '/api/v1/block/getblock?blockno=latest')).body.result.blockNumber);

async function head(): Promise<bigint> {
  return chain.publicClient.getBlockNumber({ cacheTime: 0 });
}

describe('read replicas (a real streaming standby)', () => {
  it('serves chain reads and its head from the replica, and writes and reads its own writes on the primary', async () => {
    const explorer = await explorerOn(`replica_${schemaCount++}`, true);
    const first = await head();
    await waitFor(async () => (await servedHead(explorer).catch(() => -1n)) === first, `the replica to serve block ${first}`);
    expect(explorer.storage.primary).toBeDefined();

    await servers.pauseReplay();
    await transfers(2);
    const last = await head();
    const newest = (await chain.publicClient.getBlock({ blockNumber: last })).transactions[0]!;
    // The indexer writes on to the primary, while everything served stays at the replica's block.
    await waitFor(async () => (await explorer.storage.primary!.getCursor())?.number === last, `the primary to hold block ${last}`);
    expect(await servedHead(explorer)).toBe(first);
    expect((await call(explorer, 'GET', '/api/v1/health')).body.result).toMatchObject({ indexedBlock: Number(first) });
    expect((await call(explorer, 'GET', `/api/v1/transaction/${newest}`)).status).toBe(404);

    // Accounts read their own writes on the primary while the replica stands still.
    const user = { email: 'replica@example.com', password: 'a long enough passphrase for tests', name: 'Replica' };
    expect((await call(explorer, 'POST', '/api/v1/auth/register', user)).status).toBe(200);
    const login = await call(explorer, 'POST', '/api/v1/auth/login', { email: user.email, password: user.password });
    expect(login.status).toBe(200);
    const key = await call(explorer, 'POST', '/api/v1/auth/api-keys', { name: 'reader' }, { authorization: `Bearer ${login.body.result.access_token}` });
    expect(key.status).toBe(200);
    const bearer = { authorization: `Bearer ${login.body.result.access_token}` };
    expect((await call(explorer, 'GET', '/api/v1/auth/api-keys', undefined, bearer)).body.result).toHaveLength(1);
    // The new key is checked on the primary: it authenticates at once.
    const summary = await call(explorer, 'GET', `/api/v1/account/summary?address=${chain.accounts[1]!.address}`, undefined, { 'x-api-key': key.body.result.key });
    expect(summary.status).toBe(200);

    await servers.resumeReplay();
    await waitFor(async () => (await servedHead(explorer)) === last, `the replica to serve block ${last}`);
    expect((await call(explorer, 'GET', `/api/v1/transaction/${newest}`)).body.result.hash).toBe(newest);
  });

  it('a serving instance hears the indexer’s blocks once its replica has them, every one, in order', async () => {
    const schema = `replica_${schemaCount++}`;
    const indexing = await explorerOn(schema, true);
    const serving = await explorerOn(schema, false);
    // Every block heard, from the start: an announcement of the blocks before `start` may still arrive.
    const heard: bigint[] = [];
    serving.hub.on('block', ({ block }) => heard.push(block.number));
    const start = await head();
    await waitFor(async () => (await servedHead(serving).catch(() => -1n)) === start, `the serving instance to serve block ${start}`);
    const after = () => heard.filter((number) => number > start);

    await servers.pauseReplay();
    await transfers(3);
    const last = await head();
    await waitFor(async () => (await indexing.storage.primary!.getCursor())?.number === last, `the primary to hold block ${last}`);
    // Announced over the bus, but not on the replica yet: nothing is heard, nothing served.
    expect(after()).toEqual([]);
    expect(await servedHead(serving)).toBe(start);

    await servers.resumeReplay();
    await waitFor(() => (heard.at(-1) === last ? true : null), `the serving instance to hear block ${last}`);
    expect(after()).toEqual([start + 1n, start + 2n, start + 3n]);
    expect(await servedHead(serving)).toBe(last);
  });
});
