import {
  asText,
  contractCreationsOf,
  createExplorer,
  internalTransactionsOf,
  type Explorer,
  type ExplorerConfig,
  type StoredContractCreation,
  type StoredInternalTransaction,
} from '@chainlens/core';
import { compileContracts, createTestChain, DEMO_SOURCES, type TestChain } from '@chainlens/devchain';
import { indexedThrough, startNodeRelay, waitFor, type NodeRelay } from '@chainlens/testing';
import { pino } from 'pino';
import { encodeFunctionData, type Abi, type Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, testSchemas } from './database.js';

/**
 * The trace pipeline end to end, on anvil and Postgres: blocks are written from their receipts
 * and their call traces behind them, in a pipeline of their own.
 */
const schemas = testSchemas();
let chain: TestChain;
let caller: { address: Address; abi: Abi };
const opened: { close(): Promise<void> }[] = [];

/** The node's call frames of `number`'s transactions, in order. */
type Frame = Parameters<typeof internalTransactionsOf>[1];

beforeAll(async () => {
  chain = await createTestChain();
  const { abi, bytecode } = (await compileContracts({ 'Caller.sol': DEMO_SOURCES['Caller.sol']! })).Caller!;
  const hash = await chain.walletClient.deployContract({ abi: abi as Abi, bytecode });
  caller = { address: (await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })).contractAddress!, abi: abi as Abi };
  await deployChildren(12);
});

afterEach(async () => {
  for (const closable of opened.splice(0).reverse()) await closable.close();
});

afterAll(() => chain?.close());

/** `count` blocks, each with a `Caller.deployChild` carrying value: a creation inside it, and value moved by it. */
async function deployChildren(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const hash = await chain.walletClient.sendTransaction({ to: caller.address, data: encodeFunctionData({ abi: caller.abi, functionName: 'deployChild' }), value: 1_000n + BigInt(i) });
    await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  }
}

async function explorerOn(schema: string, rpcUrl: string, indexer: ExplorerConfig['indexer'] = {}): Promise<Explorer> {
  const explorer = await createExplorer({
    rpcUrl,
    storage: await createStorage(schema),
    logger: pino({ level: 'silent' }),
    indexer: { pollIntervalMs: 20, retryBaseMs: 20, maxBackoffMs: 100, ...indexer },
  });
  opened.push(explorer);
  await explorer.start();
  return explorer;
}

async function relay(): Promise<NodeRelay> {
  const started = await startNodeRelay(chain.rpcUrl);
  opened.push(started);
  return started;
}

async function head(): Promise<bigint> {
  return chain.publicClient.getBlockNumber({ cacheTime: 0 });
}

/**
 * What the node's traces say blocks `0…through` hold, computed from each block on its own with
 * the debug API's call tracer (the pipeline reads anvil's `trace_block`: this also checks the two
 * agree).
 */
async function nodeTraces(explorer: Explorer, through: bigint): Promise<{ internal: StoredInternalTransaction[]; creations: StoredContractCreation[] }> {
  const internal: StoredInternalTransaction[] = [];
  const creations: StoredContractCreation[] = [];
  for (let number = 0n; number <= through; number++) {
    const { block, transactionHashes } = (await explorer.storage.getBlockWithTransactionHashes(number))!;
    const transactions = (await explorer.storage.getTransactions(transactionHashes)).map((tx) => tx!);
    const traces = await chain.publicClient.request({ method: 'debug_traceBlockByHash' as never, params: [block.hash, { tracer: 'callTracer' }] as never });
    const frames = (traces as { result: Frame }[]).map((trace) => trace.result);
    transactions.forEach((tx, i) => {
      if (tx.status === 1) internal.push(...internalTransactionsOf(tx, frames[i]!));
    });
    creations.push(...contractCreationsOf(transactions, frames));
  }
  return { internal, creations };
}

/** Asserts the explorer stores exactly what the node's traces say, through `through`. */
async function expectTracedAsTheNodeSays(explorer: Explorer, through: bigint): Promise<void> {
  const { internal, creations } = await nodeTraces(explorer, through);
  expect(internal.filter((x) => x.type === 'create').length).toBeGreaterThan(0);
  expect(await explorer.storage.listInternalTransactions({ page: 1, offset: 10_000, sort: 'asc' })).toEqual(internal);
  for (const creation of creations) expect(await explorer.storage.getContractCreation(creation.address), creation.address).toEqual(creation);
}

describe('trace pipeline (anvil, Postgres)', () => {
  it('traces written blocks behind them: what the node’s traces hold is stored, and health and GraphQL tell how far', async () => {
    const explorer = await explorerOn(schemas.next(), chain.rpcUrl);
    const last = await head();
    await waitFor(() => indexedThrough(explorer, last), `blocks and traces through ${last}`);
    await expectTracedAsTheNodeSays(explorer, last);
    const health = await explorer.services.health.check();
    expect(health).toMatchObject({ indexedBlock: Number(last), tracedBlock: Number(last), traceLag: 0 });
    const graphql = await explorer.kernel.handle({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      ip: '127.0.0.1',
      body: { query: '{ blockchain { tracedBlock } }' },
    });
    expect(JSON.parse(asText(graphql).body)).toEqual({ data: { blockchain: { tracedBlock: last.toString() } } });
    expect(explorer.indexer.status.tracing).toEqual({ running: true, support: 'yes', lastError: null });
  });

  it('a restart resumes tracing from the trace cursor left behind, through every block', async () => {
    const schema = schemas.next();
    const untraced = await explorerOn(schema, chain.rpcUrl, { traces: false });
    const last = await head();
    await waitFor(async () => (await untraced.storage.getCursor())?.number === last, `blocks through ${last}`);
    expect(await untraced.storage.getTraceCursor()).toBe(-1n);
    expect((await untraced.services.health.check()).tracedBlock).toBeNull();
    await untraced.close();

    const resumed = await explorerOn(schema, chain.rpcUrl);
    await waitFor(() => indexedThrough(resumed, last), `traces through ${last}`);
    await expectTracedAsTheNodeSays(resumed, last);
  });

  it('retries a node that stops tracing, with backoff, answers meanwhile no more than is traced, and skips no block once it traces again', async () => {
    const node = await relay();
    const explorer = await explorerOn(schemas.next(), node.url, { traceConcurrency: 2 });
    const before = await head();
    await waitFor(() => indexedThrough(explorer, before), `traces through ${before}`);
    // trace_block is how this node traces: it refuses it from now on.
    node.refused.add('trace_block');
    await deployChildren(3);
    const last = await head();
    await waitFor(async () => (await explorer.storage.getCursor())?.number === last, `blocks through ${last}`);
    await waitFor(() => explorer.indexer.status.tracing?.lastError ?? null, 'a failed trace');
    const asked = node.methods.filter((method) => method === 'trace_block').length;
    await waitFor(() => node.methods.filter((method) => method === 'trace_block').length > asked + 2 || null, 'the trace asked again');
    expect(await explorer.storage.getTraceCursor()).toBe(before);
    expect(explorer.indexer.status.tracing?.support).toBe('yes');
    expect(await explorer.services.health.check()).toMatchObject({ tracedBlock: Number(before), traceLag: Number(last - before) });
    // The held blocks are served, but an answer from traces lists none of theirs until they are traced.
    const heldInternal = async () => {
      const url = `/api?module=account&action=txlistinternal&startblock=${before + 1n}&endblock=${last}`;
      return JSON.parse(asText(await explorer.kernel.handle({ method: 'GET', url, headers: {}, ip: '127.0.0.1' })).body) as { status: string; result: unknown[] };
    };
    expect(await heldInternal()).toMatchObject({ status: '0', result: [] });

    node.refused.delete('trace_block');
    await waitFor(() => indexedThrough(explorer, last), `traces through ${last}`);
    await expectTracedAsTheNodeSays(explorer, last);
    const held = (await nodeTraces(explorer, last)).internal.filter((x) => x.blockNumber > before);
    expect(held.length).toBeGreaterThan(0);
    expect((await heldInternal()).result).toHaveLength(held.length);
    expect(node.methods).not.toContain('debug_traceBlockByHash');
  });

  it('traces with debug_traceBlockByHash on a node without trace_block, to the same records', async () => {
    const node = await relay();
    node.refused.add('trace_block');
    const explorer = await explorerOn(schemas.next(), node.url);
    const last = await head();
    await waitFor(() => indexedThrough(explorer, last), `traces through ${last}`);
    await expectTracedAsTheNodeSays(explorer, last);
    // Asked once by each first read (4 in flight), then never again.
    const probes = node.methods.filter((method) => method === 'trace_block').length;
    expect(probes).toBeLessThanOrEqual(4);
    expect(node.methods).toContain('debug_traceBlockByHash');
    await deployChildren(2);
    await waitFor(async () => indexedThrough(explorer, await head()), 'the next blocks traced');
    expect(node.methods.filter((method) => method === 'trace_block')).toHaveLength(probes);
  });

  it.each([
    { failing: 'trace_block', refused: [], unused: 'debug_traceBlockByHash' },
    { failing: 'debug_traceBlockByHash', refused: ['trace_block'], unused: null },
  ])('retries $failing failing its first calls with an internal error (-32603): neither another method nor tracing off', async ({ failing, refused, unused }) => {
    const node = await relay();
    for (const method of refused) node.refused.add(method);
    node.failing.set(failing, 3);
    const explorer = await explorerOn(schemas.next(), node.url);
    const last = await head();
    await waitFor(() => indexedThrough(explorer, last), `traces through ${last}`);
    await expectTracedAsTheNodeSays(explorer, last);
    expect(node.failing.get(failing)).toBe(0);
    expect(explorer.indexer.status.tracing?.support).toBe('yes');
    if (unused) expect(node.methods).not.toContain(unused);
  });

  it('indexes every block of a node without trace_block or debug_traceBlockByHash, traces nothing and says tracedBlock null', async () => {
    const node = await relay();
    node.refused.add('trace_block').add('debug_traceBlockByHash');
    const explorer = await explorerOn(schemas.next(), node.url);
    const last = await head();
    await waitFor(async () => (await explorer.storage.getCursor())?.number === last && explorer.indexer.status.tracing?.support === 'no', 'blocks, and the node found not to trace');
    expect(await explorer.storage.listInternalTransactions({ page: 1, offset: 10, sort: 'asc' })).toEqual([]);
    expect(await explorer.storage.getTraceCursor()).toBe(-1n);
    expect(await explorer.services.health.check()).toMatchObject({ indexedBlock: Number(last), tracedBlock: null, traceLag: null });
    const asked = node.methods.filter((method) => method === 'trace_block' || method === 'debug_traceBlockByHash').length;
    await deployChildren(1);
    await waitFor(async () => (await explorer.storage.getCursor())?.number === (await head()), 'the next block');
    expect(node.methods.filter((method) => method === 'trace_block' || method === 'debug_traceBlockByHash').length).toBe(asked);
  });

  // Last: it reorganises the file's chain.
  it('a reorg during trace catch-up leaves no trace of a removed block, and traces the blocks mined again', async () => {
    const node = await relay();
    // Slow traces, one block a read (the debug API): the trace cursor lags far behind the blocks.
    node.refused.add('trace_block');
    node.delays.set('debug_traceBlockByHash', 150);
    const explorer = await explorerOn(schemas.next(), node.url, { traceConcurrency: 1 });
    const top = await head();
    await waitFor(async () => (await explorer.storage.getCursor())?.number === top, `blocks through ${top}`);
    const traced = await waitFor(async () => {
      const cursor = (await explorer.storage.getTraceCursor())!;
      return cursor > 2n ? cursor : null;
    }, 'a few blocks traced');
    expect(traced).toBeLessThan(top - 2n);
    // Replace the blocks from two traced ones on (the rest not traced yet) with empty ones, then mine other children.
    const depth = Number(top - traced) + 2;
    expect((await explorer.storage.listInternalTransactions({ startBlock: traced - 1n, page: 1, offset: 10, sort: 'asc' })).length).toBeGreaterThan(0);
    await chain.publicClient.request({ method: 'anvil_reorg' as never, params: [depth, []] as never });
    await deployChildren(2);
    node.delays.delete('debug_traceBlockByHash');
    const last = await head();
    await waitFor(async () => (await indexedThrough(explorer, last)) && (await explorer.storage.getBlockByNumber(top))?.hash === (await chain.publicClient.getBlock({ blockNumber: top })).hash, `the new branch traced through ${last}`);
    await expectTracedAsTheNodeSays(explorer, last);
  });
});
