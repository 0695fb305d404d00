import { pino } from 'pino';
import type { Hex } from 'viem';
import { createTestChain, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { rpcCall } from '@chainlens/devchain';
import type { ReorgEvent } from '@chainlens/core';
import { createExplorer, type Explorer } from '@chainlens/core';
import { asText } from '@chainlens/core';
import type { Storage } from '@chainlens/core';
import { waitFor, type ServedApi } from '../api/context.js';
import { startNodeRelay, type NodeRelay } from '../api/node-relay.js';
import { connect, type ClientSocketClass, type TestClient } from '../sockets/client.js';

/** Options of the reorg suite: the storage under test and how the explorer is served. */
export interface ReorgSuiteOptions {
  /** Names the run, e.g. `postgres`. */
  name: string;
  /** A fresh storage for the run. */
  storage: () => Promise<Storage> | Storage;
  /** Rounds of the randomized reorg test (default 24). */
  reorgs?: number;
  /** Serves the explorer, so a WebSocket subscriber of `blocks` witnesses the reorgs too. */
  serve: (explorer: Explorer) => Promise<ServedApi>;
  /** `ws`'s `WebSocket` class, the subscriber's client. */
  WebSocket: ClientSocketClass;
}

/** A chain with the demo deployed, an explorer indexing it, served, and a `blocks` subscriber. */
export interface ReorgRun {
  chain: TestChain;
  demo: DemoDeployment;
  explorer: Explorer;
  subscriber: TestClient;
  /** The relay between the explorer and the node, where the run was started with one. */
  relay: NodeRelay | null;
  /** The reorgs the explorer's hub announced, in order. */
  reorgs: ReorgEvent[];
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** The node's head block. */
  head(): Promise<{ number: bigint; hash: Hex }>;
  /**
   * Waits until the explorer has indexed the node's head (its hash, not only its number) and its
   * hub has announced it, so its services read at that head (storage shows a block a moment
   * before the indexer announces it).
   */
  indexed(): Promise<void>;
  /** What the kernel answers for a GET, decoded (the API as served, without an adapter in between). */
  get<T = any>(url: string): Promise<{ status: number; result: T }>;
  close(): Promise<void>;
}

/** Starts a {@link ReorgRun} on a fresh anvil (the explorer reaching it through a relay if `relayed`); the caller closes it. */
export async function startReorgRun(options: ReorgSuiteOptions, relayed = false): Promise<ReorgRun> {
  const chain = await createTestChain();
  let relay: NodeRelay | null = null;
  let explorer: Explorer | undefined;
  let served: ServedApi | undefined;
  let subscriber: TestClient | undefined;
  const close = async () => {
    subscriber?.close();
    await served?.close();
    await explorer?.close();
    await relay?.close();
    await chain.close();
  };
  try {
    const demo = await deployDemo({ rpcUrl: chain.rpcUrl });
    if (relayed) relay = await startNodeRelay(chain.rpcUrl);
    explorer = await createExplorer({
      rpcUrl: relay?.url ?? chain.rpcUrl,
      storage: await options.storage(),
      logger: pino({ level: 'silent' }),
      indexer: { pollIntervalMs: 10, retryBaseMs: 20, maxBackoffMs: 200 },
      rateLimits: { enabled: false },
    });
    const reorgs: ReorgEvent[] = [];
    explorer.hub.on('reorg', (event) => reorgs.push(event));
    let announced: Hex | null = null;
    explorer.hub.on('block', ({ block }) => (announced = block.hash));
    served = await options.serve(explorer);
    subscriber = await connect(options.WebSocket, `${served.url.replace(/^http/, 'ws')}/ws`);
    await subscriber.subscribe('blocks');
    await explorer.start();
    const rpc = <T>(method: string, params: unknown[] = []) => rpcCall<T>(chain.rpcUrl, method, params);
    const head = async () => {
      const block = await rpc<{ number: Hex; hash: Hex }>('eth_getBlockByNumber', ['latest', false]);
      return { number: BigInt(block.number), hash: block.hash };
    };
    const ready = explorer;
    const run: ReorgRun = {
      chain,
      demo,
      explorer: ready,
      subscriber,
      relay,
      reorgs,
      rpc,
      head,
      async indexed() {
        const { number, hash } = await head();
        await waitFor(async () => announced === hash && (await ready.storage.getCursor())?.hash === hash, `indexing block ${number}`, 60_000);
      },
      async get<T>(url: string) {
        const response = await ready.kernel.handle({ method: 'GET', url, headers: {}, ip: '127.0.0.1' });
        return { status: response.status, result: (JSON.parse(asText(response).body) as { result: T }).result };
      },
      close,
    };
    await run.indexed();
    return run;
  } catch (error) {
    await close();
    throw error;
  }
}
