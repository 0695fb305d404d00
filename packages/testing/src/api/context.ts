import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { createExplorer, type Explorer, type ExplorerConfig, type Role, type Storage } from '@chainlens/core';
import { createTestChain, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { FAST_INDEXER, demoPrices } from '../explorer-settings.js';

/** A server serving an explorer, as an adapter test builds it. */
export interface ServedApi {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  close(): Promise<void>;
}

/** How a suite run serves the explorer and stores its data. */
export interface ApiSuiteOptions {
  /** Names the run, e.g. `fastify + memory`. */
  name: string;
  /** A fresh storage for the run. */
  storage: () => Promise<Storage> | Storage;
  /** Serves `explorer` on a free port through the adapter under test. */
  serve: (explorer: Explorer) => Promise<ServedApi>;
}

/** What the suite's tests share: a real anvil with the demo deployed, indexed and served. */
export interface ApiContext {
  /** How the suite run serves and stores, for tests that build explorers of their own. */
  options: ApiSuiteOptions;
  chain: TestChain;
  demo: DemoDeployment;
  explorer: Explorer;
  url: string;
  close(): Promise<void>;
}

/** A decoded HTTP answer. */
export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: { status: string; message: string; result: T };
}

const SUITE_ALLOWANCE = { perMinute: 1_000_000, perDay: 100_000_000 };

/**
 * Starts the chain, deploys the demo, serves a fresh explorer (with `config` over the suite's
 * settings) and waits until it has indexed the head.
 */
export async function createApiContext(options: ApiSuiteOptions, config: Partial<ExplorerConfig> = {}): Promise<ApiContext> {
  const chain = await createTestChain();
  try {
    const demo = await deployDemo({ rpcUrl: chain.rpcUrl });
    const explorer = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: await options.storage(),
      logger: pino({ level: 'silent' }),
      indexer: FAST_INDEXER,
      pending: { pollIntervalMs: 20 },
      prices: demoPrices(demo),
      // The suite sends hundreds of requests from one address; the limits have tests of their own.
      rateLimits: { anonymous: SUITE_ALLOWANCE, authenticated: SUITE_ALLOWANCE, registrationsPerHour: 100_000 },
      ...config,
    });
    const served = await options.serve(explorer);
    await explorer.start();
    const context: ApiContext = {
      options,
      chain,
      demo,
      explorer,
      url: served.url,
      async close() {
        await served.close();
        await explorer.close();
        await chain.close();
      },
    };
    await indexedToHead(context);
    return context;
  } catch (error) {
    await chain.close();
    throw error;
  }
}

/** Waits until the explorer has indexed the node's current head; resolves that head. */
export async function indexedToHead(context: ApiContext): Promise<bigint> {
  const head = await context.chain.publicClient.getBlockNumber({ cacheTime: 0 });
  await waitFor(() => indexedThrough(context.explorer, head), `indexing block ${head}`);
  return head;
}

/**
 * Moves one unit of the demo ERC-20 from dev account 0 to itself in a block of its own and waits
 * until the explorer has indexed it: a head holding a transaction, a token transfer and a log
 * that earlier blocks have too. Resolves that block's number.
 */
export async function tokenTransferAtHead(context: ApiContext): Promise<bigint> {
  const { chain, demo } = context;
  const self = chain.accounts[0]!.address;
  const hash = await chain.walletClient.writeContract({ address: demo.contracts.token, abi: demo.abis.token, functionName: 'transfer', args: [self, 1n] });
  const { blockNumber } = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  await waitFor(() => indexedThrough(context.explorer, blockNumber), `indexing block ${blockNumber}`);
  return blockNumber;
}

/**
 * Whether `explorer` stored block `number` with its traces, where it traces (its trace indexer
 * reads them behind the blocks).
 */
export async function indexedThrough(explorer: Explorer, number: bigint): Promise<boolean> {
  const [cursor, traced] = await Promise.all([explorer.storage.getCursor(), explorer.storage.getTraceCursor()]);
  const { tracing } = explorer.indexer.status;
  return (cursor?.number ?? -1n) >= number && (tracing === null || tracing.support === 'no' || (traced ?? -1n) >= number);
}

/**
 * Polls `check` every `intervalMs` until it returns a truthy value (no fixed sleeps). A `check`
 * that throws counts as not yet (a node being restarted, say); the last error is reported on
 * timeout. Polls of a rate-limited server space themselves out with `intervalMs`.
 */
export async function waitFor<T>(check: () => Promise<T> | T, what: string, timeoutMs = 20_000, intervalMs = 20): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Calls the API and decodes the envelope. */
export async function call<T = any>(context: Pick<ApiContext, 'url'>, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer<T>> {
  const response = await fetch(`${context.url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  // Pages, scripts and Prometheus text (`/docs`, `/metrics`) are answered as the text they are.
  const json = response.headers.get('content-type')?.includes('json') ?? true;
  return { status: response.status, headers: response.headers, body: (json ? JSON.parse(text) : text) as ApiAnswer<T>['body'] };
}

/** A user made by {@link signUp}: ids, credentials and the header that sends the token. */
export interface SignedUpUser {
  id: string;
  email: string;
  password: string;
  token: string;
  bearer: Record<string, string>;
}

/**
 * Registers a fresh user over HTTP, gives them `roles` through the library where asked (how a
 * first admin is made), and logs them in.
 */
export async function signUp(context: Pick<ApiContext, 'url' | 'explorer'>, roles?: Role[]): Promise<SignedUpUser> {
  const email = `user-${randomUUID()}@example.com`;
  const password = 'a long enough passphrase';
  const registered = await call(context, 'POST', '/api/v1/auth/register', { email, password, name: 'Someone' });
  if (registered.status !== 200) throw new Error(`registration failed: ${JSON.stringify(registered.body)}`);
  if (roles) await context.explorer.users.setRoles(registered.body.result.id, roles);
  const login = await call(context, 'POST', '/api/v1/auth/login', { email, password });
  const token = login.body.result.access_token as string;
  return { id: registered.body.result.id, email, password, token, bearer: { authorization: `Bearer ${token}` } };
}

/** GET shorthand. */
export function get<T = any>(context: ApiContext, path: string): Promise<ApiAnswer<T>> {
  return call<T>(context, 'GET', path);
}

/** The error envelope the spec prescribes. */
export function errorEnvelope(message: string, result: unknown = null) {
  return { status: '0', message, result };
}
