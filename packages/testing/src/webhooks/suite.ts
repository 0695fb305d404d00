import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { getContractAddress } from 'viem';
import { createExplorer, type Explorer, type Storage } from '@chainlens/core';
import { createTestChain, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { call, indexedThrough, signUp, waitFor, type ServedApi, type SignedUpUser } from '../api/context.js';
import { FAST_INDEXER } from '../explorer-settings.js';
import { signatureHolds, startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from './receiver.js';

/** How a webhook suite run serves the explorer and stores its data. */
export interface WebhookSuiteOptions {
  name: string;
  storage: () => Promise<Storage> | Storage;
  serve: (explorer: Explorer) => Promise<ServedApi>;
}

/** Delivery settings for tests: retries within tens of milliseconds, disabled after 6 s of failures, private targets (the local receiver) allowed. */
export const FAST_WEBHOOKS = { allowPrivateTargets: true, retryBaseMs: 40, retryMaxMs: 200, pollIntervalMs: 20, timeoutMs: 2_000, leaseMs: 5_000, maxPerUser: 3, maxAddressesPerWebhook: 5, disableAfterMs: 6_000 };

/** A record as the REST API serves it, without what moves with the head (confirmations). */
function settled(record: any): any {
  if (Array.isArray(record)) return record.map(settled);
  if (record === null || typeof record !== 'object') return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => key !== 'confirmations').map(([key, value]) => [key, settled(value)]));
}

/**
 * Webhooks end to end on a real anvil, through the HTTP API and a local receiver that checks
 * every signature: what arrives is what the REST API serves, failures are retried until every
 * delivery arrives in order, reorgs send `removed: true`, caps and bad input are refused.
 */
export function webhookSuite(options: WebhookSuiteOptions): void {
  describe(`webhooks: ${options.name}`, () => {
    let chain: TestChain;
    let demo: DemoDeployment;
    let explorer: Explorer;
    let served: ServedApi;
    let receiver: WebhookReceiver;
    const rpc = <T>(method: string, params: unknown[] = []) => chain.publicClient.request({ method: method as never, params: params as never }) as Promise<T>;
    const api = (method: string, path: string, user: SignedUpUser, body?: unknown) => call({ url: served.url }, method, path, body, user.bearer);
    const indexed = async () => {
      const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      await waitFor(() => indexedThrough(explorer, head), `indexing block ${head}`);
      return head;
    };
    const watched = () => chain.accounts[4]!.address.toLowerCase();
    /** How far the explorer's clock runs ahead of the wall clock: a test moves it on rather than waiting. */
    let clockAhead = 0;

    async function hookFor(user: SignedUpUser, body: Record<string, unknown>): Promise<string> {
      const created = await api('POST', '/api/v1/account/webhooks', user, { url: receiver.url, ...body });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      receiver.trust(created.body.result.id, created.body.result.secret);
      return created.body.result.id;
    }

    /** Sends `count` demo-token transfers to the watched address (and one ether transfer), each in its own block. */
    async function activity(count: number): Promise<string[]> {
      const hashes: string[] = [];
      for (let i = 0; i < count; i++) {
        const hash = await chain.walletClient.writeContract({ address: demo.contracts.token, abi: demo.abis.token, functionName: 'transfer', args: [chain.accounts[4]!.address, BigInt(i + 1)] });
        await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
        hashes.push(hash);
      }
      const hash = await chain.walletClients[1]!.sendTransaction({ to: chain.accounts[4]!.address, value: 7n });
      await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      hashes.push(hash);
      await indexed();
      return hashes;
    }

    const accepted = (webhookId: string) => receiver.accepted().filter((delivery) => delivery.webhookId === webhookId);
    const outbox = async (webhookId: string) => (await explorer.storage.listWebhookDeliveries({ webhookId, limit: 10_000 })).reverse();
    const allDelivered = async (webhookId: string) => {
      const all = await outbox(webhookId);
      return all.length > 0 && all.every((delivery) => delivery.status === 'delivered') ? all : null;
    };

    beforeAll(async () => {
      chain = await createTestChain();
      demo = await deployDemo({ rpcUrl: chain.rpcUrl });
      // Past anvil's finalized depth (64), so later blocks may be reorganised.
      await rpc('anvil_mine', ['0x46']);
      receiver = await startWebhookReceiver();
      explorer = await createExplorer({ rpcUrl: chain.rpcUrl, storage: await options.storage(), logger: pino({ level: 'silent' }), indexer: FAST_INDEXER, webhooks: FAST_WEBHOOKS, rateLimits: { enabled: false }, clock: () => Date.now() + clockAhead });
      served = await options.serve(explorer);
      await explorer.start();
      await indexed();
    }, 120_000);

    afterAll(async () => {
      await served?.close();
      await explorer?.close();
      await receiver?.close();
      await chain?.close();
    });

    it('a receiver checking every signature gets every transfer of a watched address exactly as the REST API shows it', async () => {
      const user = await signUp({ url: served.url, explorer });
      const id = await hookFor(user, { events: ['address_activity'], addresses: [watched()] });
      const tokenHook = await hookFor(user, { events: ['token_transfer'], tokens: [demo.contracts.token] });
      const hashes = await activity(3);
      await waitFor(() => allDelivered(id), 'every delivery of the hook');
      await waitFor(() => allDelivered(tokenHook), 'every delivery of the token hook');
      const got = accepted(id);
      expect(got.length).toBe((await outbox(id)).length);
      expect(receiver.received.filter((delivery) => delivery.webhookId === id).every((delivery) => delivery.signatureValid)).toBe(true);
      const transfers = got.filter((delivery) => delivery.body.data.transfer).map((delivery) => delivery.body.data.transfer);
      const rest = await api('GET', `/api/v1/account/token-transfers?address=${watched()}&sort=asc&offset=100`, user);
      const fromRest = rest.body.result.filter((transfer: any) => hashes.includes(transfer.hash));
      expect(settled(transfers)).toEqual(settled(fromRest));
      expect(fromRest).toHaveLength(3);
      const tokenTransfers = accepted(tokenHook).map((delivery) => delivery.body.data.transfer);
      expect(accepted(tokenHook).every((delivery) => delivery.body.event === 'token_transfer')).toBe(true);
      expect(settled(tokenTransfers)).toEqual(settled(fromRest));
      for (const delivery of got.filter((d) => d.body.data.transaction)) {
        const tx = await api('GET', `/api/v1/transaction/${delivery.body.data.transaction.hash}`, user);
        expect(settled(delivery.body.data.transaction)).toEqual(settled(tx.body.result));
      }
      expect(got.map((d) => d.body.data.transaction?.hash ?? d.body.data.transfer?.hash)).toEqual(expect.arrayContaining(hashes));
      const first = got[0]!;
      expect(first.body).toMatchObject({ id: first.deliveryId, webhookId: id, event: 'address_activity', data: { removed: false } });
      expect(Math.abs(first.timestamp - Date.now() / 1000)).toBeLessThan(60);
    });

    it('an internal transfer the trace pipeline finds is delivered as served, before the next block’s deliveries', async () => {
      const user = await signUp({ url: served.url, explorer });
      // Caller.deployChild forwards its value to the Child it creates: that child is watched (its first CREATE was nonce 1).
      const child = getContractAddress({ from: demo.contracts.caller, nonce: 2n }).toLowerCase();
      const id = await hookFor(user, { events: ['address_activity', 'block'], addresses: [child] });
      const hash = await chain.walletClient.writeContract({ address: demo.contracts.caller, abi: demo.abis.caller, functionName: 'deployChild', value: 5n });
      const { blockNumber } = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      await rpc('anvil_mine', ['0x1']);
      const told = await waitFor(() => accepted(id).find((delivery) => delivery.body.data.internalTransaction), 'the internal transfer delivered', 20_000);
      const next = await waitFor(() => accepted(id).find((delivery) => BigInt(delivery.body.data.blockNumber) === blockNumber + 1n), 'the next block delivered');
      expect(told.body).toMatchObject({ event: 'address_activity', data: { blockNumber: blockNumber.toString(), removed: false } });
      expect(told.signatureValid).toBe(true);
      const internal = told.body.data.internalTransaction;
      expect(internal).toMatchObject({ hash, type: 'create', contractAddress: child, value: '5', blockNumber: blockNumber.toString() });
      // The Etherscan-compatible route serves the same record (its own name for the timestamp).
      const listed = await call({ url: served.url }, 'GET', `/api?module=account&action=txlistinternal&address=${child}`);
      expect(listed.body.result).toHaveLength(1);
      const { timeStamp, ...rest } = listed.body.result[0];
      expect(timeStamp).toBe(internal.timestamp);
      for (const [key, value] of Object.entries(rest)) expect(internal[key], key).toEqual(value);
      const order = accepted(id).map((delivery) => delivery.deliveryId);
      expect(order.indexOf(told.deliveryId)).toBeLessThan(order.indexOf(next.deliveryId));
    });

    it('a receiver answering 500 for a while gets every delivery once it recovers, in block order per hook', async () => {
      const user = await signUp({ url: served.url, explorer });
      const id = await hookFor(user, { events: ['address_activity', 'block'], addresses: [watched()] });
      let failures = 0;
      receiver.answer = (delivery) => (delivery.webhookId === id && failures++ < 12 ? 500 : 200);
      try {
        await activity(3);
        await waitFor(() => allDelivered(id), 'every delivery after the failures', 30_000);
      } finally {
        receiver.answer = () => 200;
      }
      const stored = await outbox(id);
      const got = accepted(id);
      expect(failures).toBeGreaterThanOrEqual(12);
      expect(got.map((delivery) => delivery.deliveryId)).toEqual(stored.map((delivery) => delivery.id));
      const blocks = got.map((delivery) => BigInt(delivery.body.data.blockNumber));
      expect(blocks).toEqual([...blocks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      // Retries carry the same delivery id and body.
      const retried = receiver.received.filter((delivery) => delivery.webhookId === id && delivery.answered === 500);
      for (const attempt of retried) expect(got.find((delivery) => delivery.deliveryId === attempt.deliveryId)?.raw).toBe(attempt.raw);
      const deliveries = await api('GET', `/api/v1/account/webhooks/${id}/deliveries?limit=100`, user);
      // What is served is what the API description shows.
      const documented = (path: string) => explorer.kernel.routes.find((route) => route.method === 'GET' && route.path === path)!.response!;
      expect(documented('/api/v1/account/webhooks/:id/deliveries').safeParse(deliveries.body.result).success).toBe(true);
      expect(documented('/api/v1/account/webhooks').safeParse((await api('GET', '/api/v1/account/webhooks', user)).body.result).success).toBe(true);
      expect(deliveries.body.result[0]).toMatchObject({ status: 'delivered', lastResponseCode: 200, nextRetryAt: null });
      expect(deliveries.body.result.some((delivery: any) => delivery.attempts > 1)).toBe(true);
      const hook = await api('GET', `/api/v1/account/webhooks/${id}`, user);
      expect(hook.body.result).toMatchObject({ active: true, failingSince: null });
      // A redelivery sends the same delivery (id and body) again.
      const again = await api('POST', `/api/v1/account/webhooks/${id}/deliveries/${stored[0]!.id}/redeliver`, user);
      expect(again.body.result).toMatchObject({ id: stored[0]!.id, status: 'pending' });
      const resent = await waitFor(() => accepted(id).filter((delivery) => delivery.deliveryId === stored[0]!.id)[1], 'the redelivery');
      expect(resent.raw).toBe(got[0]!.raw);
      expect((await api('POST', `/api/v1/account/webhooks/${id}/deliveries/${randomUUID()}/redeliver`, user)).status).toBe(404);
      const metric = async (name: string) => (await explorer.metrics!.registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
      expect(await metric('chainlens_webhook_delivery_failures_total')).toBeGreaterThanOrEqual(12);
      expect(await metric('chainlens_webhook_delivery_retries_total')).toBeGreaterThanOrEqual(12);
      expect(await metric('chainlens_webhook_deliveries_sent_total')).toBeGreaterThanOrEqual(stored.length + 1);
      expect(await metric('chainlens_webhook_deliveries_queued')).toBe(await explorer.storage.countPendingWebhookDeliveries());
    });

    it('a reorg sends removed: true for what was delivered and undone', async () => {
      const user = await signUp({ url: served.url, explorer });
      const id = await hookFor(user, { events: ['address_activity'], addresses: [watched()] });
      const snapshot = await rpc<string>('evm_snapshot');
      const hash = await chain.walletClients[2]!.sendTransaction({ to: chain.accounts[4]!.address, value: 3n });
      await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      const told = await waitFor(() => accepted(id).find((delivery) => delivery.body.data.transaction?.hash === hash), 'the transaction delivered');
      await rpc('evm_revert', [snapshot]);
      await rpc('evm_increaseTime', [7]);
      await rpc('anvil_mine', ['0x3']);
      const removal = await waitFor(() => accepted(id).find((delivery) => delivery.body.data.removed === true), 'the removal delivered');
      expect(removal.deliveryId).not.toBe(told.deliveryId);
      expect(removal.body.data).toEqual({ ...told.body.data, removed: true });
      expect(removal.signatureValid).toBe(true);
    });

    it('rotating the secret signs with both for the overlap; the test delivery reaches the receiver; 410 disables the hook', async () => {
      const user = await signUp({ url: served.url, explorer });
      const id = await hookFor(user, { events: ['block'] });
      const rotated = await api('POST', `/api/v1/account/webhooks/${id}/rotate-secret`, user);
      expect(rotated.status).toBe(200);
      expect(rotated.body.result.previousSecretExpiresAt).not.toBeNull();
      const test = await api('POST', `/api/v1/account/webhooks/${id}/test`, user);
      expect(test.body.result).toMatchObject({ ok: true, responseCode: 200, error: null });
      const sent = receiver.received.find((delivery) => delivery.deliveryId === test.body.result.deliveryId)!;
      expect(sent.body.event).toBe('test');
      // Trusted with the old secret only: it still signs, beside the new one (first).
      expect(sent.signatureValid).toBe(true);
      expect(sent.signature).toMatch(/^v1=[0-9a-f]{64} v1=[0-9a-f]{64}$/);
      expect(signatureHolds(sent.signature.split(' ')[0]!, String(sent.timestamp), sent.raw, [rotated.body.result.secret])).toBe(true);
      receiver.answer = (delivery) => (delivery.webhookId === id ? 410 : 200);
      try {
        await rpc('anvil_mine', ['0x1']);
        const hook = await waitFor(async () => {
          const answer = await api('GET', `/api/v1/account/webhooks/${id}`, user);
          return answer.body.result.active === false ? answer.body.result : null;
        }, 'the hook disabled');
        expect(hook.disabledReason).toBe('the target answered 410 Gone');
      } finally {
        receiver.answer = () => 200;
      }
      const reenabled = await api('PATCH', `/api/v1/account/webhooks/${id}`, user, { active: true });
      expect(reenabled.body.result).toMatchObject({ active: true, disabledReason: null });
    });

    it('a hook failing for longer than disableAfterMs is disabled with its reason, its failing delivery marked failed', async () => {
      const user = await signUp({ url: served.url, explorer });
      const id = await hookFor(user, { events: ['block'] });
      receiver.answer = (delivery) => (delivery.webhookId === id ? 503 : 200);
      try {
        await rpc('anvil_mine', ['0x1']);
        // Six failed attempts (retried from 40 ms to 200 ms apart); then the clock moves past disableAfterMs rather than the test waiting for it.
        await waitFor(() => receiver.received.filter((delivery) => delivery.webhookId === id).length >= 6, 'six failed attempts');
        expect(await api('GET', `/api/v1/account/webhooks/${id}`, user)).toMatchObject({ body: { result: { active: true } } });
        clockAhead += FAST_WEBHOOKS.disableAfterMs;
        const hook = await waitFor(async () => {
          const answer = await api('GET', `/api/v1/account/webhooks/${id}`, user);
          return answer.body.result.active === false ? answer.body.result : null;
        }, 'the hook disabled for failing', 30_000);
        expect(hook.disabledReason).toMatch(/^failing since \d{4}-\d\d-\d\dT.*; last: HTTP 503: x+$/);
        const [last] = (await api('GET', `/api/v1/account/webhooks/${id}/deliveries?limit=1`, user)).body.result;
        expect(last).toMatchObject({ status: 'failed', lastResponseCode: 503, nextRetryAt: null });
        expect(last.attempts).toBeGreaterThan(5);
        // At most 1 KB of the answer's body is kept.
        expect(last.lastError).toBe(`HTTP 503: ${'x'.repeat(1024)}`);
      } finally {
        receiver.answer = () => 200;
      }
    });

    it('caps answer 409 with a clear message, bad input 400 naming the field, others’ hooks 404', async () => {
      const user = await signUp({ url: served.url, explorer });
      const other = await signUp({ url: served.url, explorer });
      const tooMany = await api('POST', '/api/v1/account/webhooks', user, { url: receiver.url, events: ['address_activity'], addresses: Array.from({ length: 6 }, (_, i) => `0x${String(i + 1).padStart(40, '0')}`) });
      expect([tooMany.status, tooMany.body.message]).toEqual([409, 'Error! Watched address limit reached: addresses may hold at most 5 entries per webhook']);
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push(await hookFor(user, { events: ['block'], description: `hook ${i}` }));
      const fourth = await api('POST', '/api/v1/account/webhooks', user, { url: receiver.url, events: ['block'] });
      expect([fourth.status, fourth.body.message]).toEqual([409, 'Error! Webhook limit reached: at most 3 webhooks per user; delete one first']);
      const bad = [
        [{ url: receiver.url, events: ['nope'] }, /^Error! Invalid request: events\.0: /],
        [{ url: 'ftp://example.com/x', events: ['block'] }, /^Error! Invalid request: url: /],
        [{ url: receiver.url, events: ['address_activity'], addresses: ['0x12'] }, /^Error! Invalid request: addresses\.0: /],
        [{ url: receiver.url, events: [] }, /^Error! Invalid request: events: /],
      ] as const;
      for (const [body, message] of bad) {
        const answer = await api('POST', '/api/v1/account/webhooks', other, body);
        expect(answer.status).toBe(400);
        expect(answer.body.message).toMatch(message);
      }
      expect((await api('GET', `/api/v1/account/webhooks/${ids[0]}`, other)).status).toBe(404);
      expect((await api('DELETE', `/api/v1/account/webhooks/${ids[0]}`, other)).status).toBe(404);
      expect((await api('GET', '/api/v1/account/webhooks', user)).body.result).toHaveLength(3);
      expect((await api('DELETE', `/api/v1/account/webhooks/${ids[0]}`, user)).status).toBe(200);
      expect((await api('GET', '/api/v1/account/webhooks', user)).body.result).toHaveLength(2);
      expect((await call({ url: served.url }, 'GET', '/api/v1/account/webhooks')).status).toBe(401);
    });

    it('refuses targets on private, loopback and link-local addresses unless the operator allows them', async () => {
      const strict = await createExplorer({ rpcUrl: chain.rpcUrl, storage: await options.storage(), logger: pino({ level: 'silent' }), indexer: { enabled: false } });
      const strictServed = await options.serve(strict);
      try {
        const user = await signUp({ url: strictServed.url, explorer: strict });
        for (const url of [receiver.url, 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/latest/meta-data', 'http://[::ffff:127.0.0.1]/x', 'http://[fe80::1]/x', 'http://localhost/x']) {
          const answer = await call({ url: strictServed.url }, 'POST', '/api/v1/account/webhooks', { url, events: ['block'] }, user.bearer);
          expect(answer.status, url).toBe(400);
          expect(answer.body.message, url).toMatch(/^Error! Invalid request: url: resolves to .*a private, loopback or link-local address$/);
        }
      } finally {
        await strictServed.close();
        await strict.close();
      }
    });
  });
}

export type { ReceivedDelivery };
