import { randomUUID } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
import { decodeJwt } from 'jose';
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { createExplorer, type Explorer, type ExplorerConfig } from '@chainlens/core';
import { waitFor } from '../api/context.js';
import { connect, type TestClient } from './client.js';
import type { ChannelContext } from './context.js';

/** An explorer of a test's own, served: its sockets, and REST for accounts and keys. */
interface OwnServer {
  explorer: Explorer;
  /** A client at `path` (`/ws`) with `query` (`?token=…`), closed after the test. */
  client(path: string, query?: string): Promise<TestClient>;
  /** A `graphql-ws` client at `/graphql` with `query`, connected at once; `closed` holds its close event. */
  graphql(query: string): { client: Client; closed: { code: number; reason: string } | null };
  /** A registered, logged-in user: id and token. */
  account(): Promise<{ id: string; token: string }>;
  /** A new API key of the holder of `token`: id and secret. */
  apiKey(token: string): Promise<{ id: string; key: string }>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  delete(path: string, headers: Record<string, string>): Promise<number>;
}

const CLOSE_CODE = 4401;

/**
 * Connections follow their credentials: closed with 4401 and the REST message when a JWT expires,
 * at once when a key is revoked or a user deactivated, and by the periodic check when no notice
 * of it came; on `/ws` (credentials at connect or in an `auth` message) and on `/graphql`.
 */
export function credentialTests(ctx: () => ChannelContext): void {
  const closers: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  async function ownServer(config: Partial<ExplorerConfig>): Promise<OwnServer> {
    const explorer = await createExplorer({
      rpcUrl: ctx().chain.rpcUrl,
      storage: await ctx().options.storage(),
      logger: pino({ level: 'silent' }),
      rateLimits: { enabled: false },
      ...config,
    });
    const served = await ctx().options.serve(explorer);
    closers.push(async () => {
      await served.close();
      await explorer.close();
    });
    const wsUrl = served.url.replace(/^http/, 'ws');
    const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${served.url}${path}`, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const own: OwnServer = {
      explorer,
      async client(path, query = '') {
        const client = await connect(ctx().options.WebSocket, `${wsUrl}${path}${query}`);
        closers.push(() => client.close());
        return client;
      },
      graphql(query) {
        const state: { client: Client; closed: { code: number; reason: string } | null } = { client: undefined as never, closed: null };
        state.client = createClient({
          url: `${wsUrl}/graphql${query}`,
          webSocketImpl: ctx().options.WebSocket,
          lazy: false,
          retryAttempts: 0,
          onNonLazyError: () => {},
          on: {
            closed: (event) => {
              const { code, reason } = event as { code: number; reason: string };
              state.closed = { code, reason };
            },
          },
        });
        closers.push(() => state.client.dispose());
        return state;
      },
      async account() {
        const email = `socket-${randomUUID()}@example.com`;
        const password = 'a long enough passphrase';
        const registered = await request('POST', '/api/v1/auth/register', { email, password, name: 'Listener' });
        const login = await request('POST', '/api/v1/auth/login', { email, password });
        return { id: registered.body.result.id as string, token: login.body.result.access_token as string };
      },
      async apiKey(token) {
        const created = await request('POST', '/api/v1/auth/api-keys', { name: 'socket key' }, { authorization: `Bearer ${token}` });
        return { id: created.body.result.id as string, key: created.body.result.key as string };
      },
      post: (path, body, headers) => request('POST', path, body, headers),
      delete: async (path, headers) => (await request('DELETE', path, undefined, headers)).status,
    };
    return own;
  }

  const pong = async (client: TestClient) => expect(await client.request({ event: 'ping' }, (m) => m.event === 'pong')).toEqual({ event: 'pong' });
  const closedWith = async (client: TestClient, what: string, timeoutMs?: number) => {
    await waitFor(() => client.closeCode, what, timeoutMs);
    return { code: client.closeCode, reason: client.closeReason };
  };

  it('closes a connection opened with a JWT when the token expires, with 4401 Token expired, on /ws and /graphql', async () => {
    let offset = 0;
    const api = await ownServer({ clock: () => Date.now() + offset });
    const { token } = await api.account();
    const expiresAt = decodeJwt(token).exp! * 1000;
    // Jump to 1.5 s before the token expires.
    offset = expiresAt - 1_500 - Date.now();
    const atConnect = await api.client('/ws', `?token=${token}`);
    const byMessage = await api.client('/ws');
    expect(await byMessage.request({ event: 'auth', token }, () => true)).toEqual({ event: 'authenticated' });
    const anonymous = await api.client('/ws');
    const graphql = api.graphql(`?token=${token}`);
    await waitFor(() => api.explorer.sockets.stats().connections === 4 || null, 'the GraphQL connection to open');
    await pong(atConnect);

    // Observed closed (polling every 20 ms) no earlier than the token's expiry.
    expect(await closedWith(atConnect, 'the connection to close at expiry', 5_000)).toEqual({ code: CLOSE_CODE, reason: 'Token expired' });
    expect(Date.now() + offset).toBeGreaterThanOrEqual(expiresAt);
    expect(await closedWith(byMessage, 'the connection authenticated by message to close', 1_000)).toEqual({ code: CLOSE_CODE, reason: 'Token expired' });
    expect(await waitFor(() => graphql.closed, 'the GraphQL connection to close', 5_000)).toEqual({ code: CLOSE_CODE, reason: 'Token expired' });
    await pong(anonymous);
  });

  it('closes a connection at once when its key is revoked or its user deactivated, with 4401 and the REST message', async () => {
    // No periodic check within the test: only the notices can close the connections.
    const api = await ownServer({ sockets: { credentialCheckIntervalMs: 600_000 } });
    const owner = await api.account();
    const bearer = { authorization: `Bearer ${owner.token}` };
    const [revoked, kept] = [await api.apiKey(owner.token), await api.apiKey(owner.token)];
    const other = await api.account();
    const onRevoked = await api.client('/ws', `?apiKey=${revoked.key}`);
    const onKept = await api.client('/ws');
    expect(await onKept.request({ event: 'auth', apiKey: kept.key }, () => true)).toEqual({ event: 'authenticated' });
    const onToken = await api.client('/ws', `?token=${owner.token}`);
    const onOther = await api.client('/ws', `?token=${other.token}`);
    const graphql = api.graphql(`?token=${owner.token}`);
    await waitFor(() => api.explorer.sockets.stats().connections === 5 || null, 'the GraphQL connection to open');

    expect(await api.delete(`/api/v1/auth/api-keys/${revoked.id}`, bearer)).toBe(200);
    expect(await closedWith(onRevoked, 'the revoked key’s connection to close', 3_000)).toEqual({ code: CLOSE_CODE, reason: 'Invalid API key' });
    for (const client of [onKept, onToken, onOther]) await pong(client);
    expect(graphql.closed).toBeNull();

    await api.explorer.users.setActive(owner.id, false);
    expect(await closedWith(onKept, 'the deactivated user’s key connection to close', 3_000)).toEqual({ code: CLOSE_CODE, reason: 'Invalid API key' });
    expect(await closedWith(onToken, 'the deactivated user’s token connection to close', 3_000)).toEqual({ code: CLOSE_CODE, reason: 'Unauthorized' });
    expect(await waitFor(() => graphql.closed, 'the GraphQL connection to close', 3_000)).toEqual({ code: CLOSE_CODE, reason: 'Unauthorized' });
    await pong(onOther);
  });

  it('closes a connection whose credentials stopped holding without any notice, at the next periodic check', async () => {
    const api = await ownServer({ sockets: { credentialCheckIntervalMs: 200 } });
    const owner = await api.account();
    const key = await api.apiKey(owner.token);
    const onKey = await api.client('/ws', `?apiKey=${key.key}`);
    const onToken = await api.client('/ws', `?token=${owner.token}`);
    const other = await api.account();
    const onOther = await api.client('/ws', `?token=${other.token}`);
    // Written to storage directly, as another program or a lost bus message would leave it: no notice.
    await api.explorer.storage.updateApiKey(key.id, { isActive: false });
    expect(await closedWith(onKey, 'the check to find the revoked key', 3_000)).toEqual({ code: CLOSE_CODE, reason: 'Invalid API key' });
    await pong(onToken);
    await api.explorer.storage.updateUser(owner.id, { isActive: false });
    expect(await closedWith(onToken, 'the check to find the deactivated user', 3_000)).toEqual({ code: CLOSE_CODE, reason: 'Unauthorized' });
    await pong(onOther);
  });
}
