import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { createExplorer, type Explorer, type ExplorerConfig, type Role, type Storage } from '@chainlens/core';
import { createTestChain, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import type { ServedApi } from '../api/context.js';
import { waitFor } from '../api/context.js';
import { connect, type ClientSocketClass, type TestClient } from './client.js';
import { FAST_INDEXER, demoPrices } from '../explorer-settings.js';

/** How a channel suite run serves the explorer (HTTP and WebSocket) and stores its data. */
export interface ChannelSuiteOptions {
  /** Names the run, e.g. `fastify + memory`. */
  name: string;
  storage: () => Promise<Storage> | Storage;
  /** Serves `explorer` on a free port, WebSocket upgrades included. */
  serve: (explorer: Explorer) => Promise<ServedApi>;
  /** `ws`'s `WebSocket` class, the suite's client. */
  WebSocket: ClientSocketClass;
}

/** The suite's socket limits: small, so each one is quick to reach. */
export const SUITE_SOCKET_LIMITS = {
  maxMessageBytes: 4_096,
  maxSubscriptions: 5,
  maxConnectionsPerIp: 12,
  heartbeatIntervalMs: 150,
  maxBufferedBytes: 256 * 1024,
  allowedOrigins: ['https://allowed.example'],
  maxReplayBlocks: 50,
  reorgMemoryBlocks: 32,
} satisfies ExplorerConfig['sockets'];

/** What the suite's tests share: anvil with the demo deployed, an explorer indexing it, served. */
export interface ChannelContext {
  options: ChannelSuiteOptions;
  chain: TestChain;
  demo: DemoDeployment;
  explorer: Explorer;
  url: string;
  wsUrl: string;
  /** Opens a client at `/ws` (query string and headers optional); closed after the test group. */
  client(query?: string, options?: { headers?: Record<string, string>; autoPong?: boolean }): Promise<TestClient>;
  /** Mines `blocks` empty blocks and waits until they are indexed. */
  mine(blocks?: number): Promise<bigint>;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Waits until the explorer has indexed the node's head. */
  indexed(): Promise<bigint>;
  /** Drops every client opened so far. */
  closeClients(): void;
  close(): Promise<void>;
}

export async function createChannelContext(options: ChannelSuiteOptions): Promise<ChannelContext> {
  const chain = await createTestChain();
  const clients: TestClient[] = [];
  try {
    const demo = await deployDemo({ rpcUrl: chain.rpcUrl });
    const rpc = <T>(method: string, params: unknown[] = []) => chain.publicClient.request({ method: method as never, params: params as never }) as Promise<T>;
    // Past anvil's finalized depth (64), so new blocks finalize others.
    await rpc('anvil_mine', ['0x46']);
    const explorer = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: await options.storage(),
      logger: pino({ level: 'silent' }),
      indexer: FAST_INDEXER,
      pending: { pollIntervalMs: 20 },
      prices: demoPrices(demo),
      rateLimits: { enabled: false },
      sockets: SUITE_SOCKET_LIMITS,
    });
    const served = await options.serve(explorer);
    await explorer.start();
    const wsUrl = `${served.url.replace(/^http/, 'ws')}/ws`;
    const indexed = async () => {
      const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      await waitFor(async () => ((await explorer.storage.getCursor())?.number ?? -1n) >= head, `indexing block ${head}`);
      return head;
    };
    await indexed();
    return {
      options,
      chain,
      demo,
      explorer,
      url: served.url,
      wsUrl,
      rpc,
      indexed,
      async client(query = '', connectOptions = {}) {
        const client = await connect(options.WebSocket, `${wsUrl}${query}`, connectOptions);
        clients.push(client);
        return client;
      },
      async mine(blocks = 1) {
        await rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
        return indexed();
      },
      closeClients() {
        for (const client of clients.splice(0)) client.close();
      },
      async close() {
        for (const client of clients) client.close();
        await served.close();
        await explorer.close();
        await chain.close();
      },
    };
  } catch (error) {
    await chain.close();
    throw error;
  }
}

/** Registers a user over HTTP (with `roles` set through the library) and logs in: the access token. */
export async function userToken(context: ChannelContext, roles?: Role[]): Promise<string> {
  const email = `user-${randomUUID()}@example.com`;
  const password = 'a long enough passphrase';
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${context.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return (await response.json()) as { result: any };
  };
  const registered = await post('/api/v1/auth/register', { email, password, name: 'Listener' });
  if (roles) await context.explorer.users.setRoles(registered.result.id, roles);
  return (await post('/api/v1/auth/login', { email, password })).result.access_token as string;
}

/** Creates an API key with `scopes` for the holder of `token`: the secret. */
export async function apiKey(context: ChannelContext, token: string, scopes: string[] = ['read']): Promise<string> {
  const response = await fetch(`${context.url}/api/v1/auth/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'socket key', scopes }),
  });
  return ((await response.json()) as { result: { key: string } }).result.key;
}
