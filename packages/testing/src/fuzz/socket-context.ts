import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { createExplorer, type Explorer, type ExplorerConfig } from '@chainlens/core';
import { createTestChain, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { waitFor } from '../api/context.js';
import type { ChannelSuiteOptions } from '../sockets/context.js';
import { FAST_INDEXER } from '../explorer-settings.js';

/** Small limits, so the fuzzers reach every one of them quickly. */
export const FUZZ_SOCKET_LIMITS = {
  maxMessageBytes: 16 * 1024,
  maxSubscriptions: 6,
  maxConnectionsPerIp: 64,
  // Longer than any fuzz test's pause: only peers that stop answering pings are cut off.
  heartbeatIntervalMs: 2_000,
  maxBufferedBytes: 4 * 1024 * 1024,
  allowedOrigins: ['https://allowed.example'],
  maxReplayBlocks: 12,
  reorgMemoryBlocks: 32,
} satisfies ExplorerConfig['sockets'];

/** One line the explorer logged, as pino wrote it. */
export interface LoggedLine {
  level: number;
  msg?: string;
  err?: { message?: string; stack?: string };
}

/** pino's `error` level: anything at it or above is a failure the server did not expect. */
const ERROR_LEVEL = 50;

/** An anvil with the demo deployed, an explorer indexing it and served, and everything it logged. */
export interface SocketFuzzContext {
  chain: TestChain;
  demo: DemoDeployment;
  explorer: Explorer;
  url: string;
  wsUrl: string;
  /** Credentials that hold: the member's access token and API key. */
  valid: { token: string; apiKey: string };
  /** Lines the explorer logged at `error` or above since it started. */
  errors: LoggedLine[];
  /** Mines one block and waits until it is indexed: its number. */
  mine(): Promise<bigint>;
  close(): Promise<void>;
}

/**
 * Starts anvil with the demo deployed and serves a fresh explorer through `options` (the adapter
 * and storage under test) with {@link FUZZ_SOCKET_LIMITS}, its log collected instead of silenced.
 * The GraphQL fuzz suite runs on it too (its `/graphql` socket lives under the same limits).
 */
export async function createSocketFuzzContext(options: Pick<ChannelSuiteOptions, 'storage' | 'serve'>): Promise<SocketFuzzContext> {
  const chain = await createTestChain();
  try {
    const demo = await deployDemo({ rpcUrl: chain.rpcUrl });
    const errors: LoggedLine[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line) as LoggedLine) });
    const explorer = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: await options.storage(),
      logger,
      indexer: FAST_INDEXER,
      pending: { pollIntervalMs: 20 },
      rateLimits: { enabled: false },
      sockets: FUZZ_SOCKET_LIMITS,
    });
    const served = await options.serve(explorer);
    await explorer.start();
    const indexed = async () => {
      const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      await waitFor(async () => ((await explorer.storage.getCursor())?.number ?? -1n) >= head, `indexing block ${head}`);
      return head;
    };
    await indexed();
    const valid = await memberCredentials(served.url);
    return {
      chain,
      demo,
      explorer,
      url: served.url,
      wsUrl: `${served.url.replace(/^http/, 'ws')}/ws`,
      valid,
      errors,
      async mine() {
        await chain.publicClient.request({ method: 'anvil_mine' as never, params: ['0x1'] as never });
        return indexed();
      },
      async close() {
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

/** Registers a member over HTTP: its access token, and an API key of its own. */
async function memberCredentials(url: string): Promise<{ token: string; apiKey: string }> {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return ((await response.json()) as { result: Record<string, string> }).result;
  };
  const email = `socket-fuzz-${randomUUID()}@example.com`;
  const password = 'a long enough passphrase';
  await post('/auth/register', { email, password, name: 'Socket fuzzer' });
  const token = (await post('/auth/login', { email, password })).access_token!;
  const apiKey = (await post('/auth/api-keys', { name: 'socket fuzz' }, { authorization: `Bearer ${token}` })).key!;
  return { token, apiKey };
}

/** The logged lines at `error` or above, one per line for a failure message. */
export function describeErrors(lines: readonly LoggedLine[]): string {
  return lines
    .filter((line) => line.level >= ERROR_LEVEL)
    .map((line) => `${line.msg ?? ''}: ${line.err?.stack ?? line.err?.message ?? ''}`)
    .join('\n');
}
