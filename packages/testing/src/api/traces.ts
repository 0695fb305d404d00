import { pino } from 'pino';
import { afterAll, expect, it, vi } from 'vitest';
import { createExplorer, type TransactionTraceRecord } from '@chainlens/core';
import { call, errorEnvelope, get, indexedThrough, indexedToHead, signUp, waitFor, type ApiContext, type SignedUpUser } from './context.js';
import { startNodeRelay, type NodeRelay } from './node-relay.js';
import { FAST_INDEXER } from '../explorer-settings.js';

const UNKNOWN_HASH = `0x${'34'.repeat(32)}`;

/** What two tracers agree on: the tree's shape, kinds, parties, values and data (gas accounting differs between them). */
function shapeOf(trace: TransactionTraceRecord): unknown {
  return { type: trace.type, from: trace.from, to: trace.to, value: trace.value, input: trace.input, output: trace.output, error: trace.error, calls: trace.calls.map(shapeOf) };
}

/** `POST /transaction/:hash/trace` and `POST /transaction/batch`. */
export function traceAndBatchTests(ctx: () => ApiContext): void {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  let user: SignedUpUser | undefined;
  const bearer = async () => (user ??= await signUp(ctx())).bearer;

  it('answers 401 without credentials on both routes', async () => {
    const { nestedPing } = ctx().demo.transactions;
    for (const [path, body] of [
      [`/api/v1/transaction/${nestedPing}/trace`, undefined],
      ['/api/v1/transaction/batch', { hashes: [nestedPing] }],
    ] as const) {
      const answer = await call(ctx(), 'POST', path, body);
      expect({ status: answer.status, body: answer.body }, path).toEqual({ status: 401, body: errorEnvelope('Unauthorized') });
    }
  });

  it('traces a contract calling another contract into the nested call tree the node’s call tracer reports', async () => {
    const { nestedPing } = ctx().demo.transactions;
    const { caller, emitter } = ctx().demo.contracts;
    const tx = await ctx().chain.publicClient.getTransaction({ hash: nestedPing });
    const answer = await call(ctx(), 'POST', `/api/v1/transaction/${nestedPing}/trace`, undefined, await bearer());
    expect(answer.status).toBe(200);
    const trace = answer.body.result as TransactionTraceRecord;
    expect(trace).toMatchObject({ type: 'CALL', from: tx.from.toLowerCase(), to: caller.toLowerCase(), value: '0', input: tx.input, error: null });
    expect(trace.calls).toHaveLength(1);
    expect(trace.calls[0]).toMatchObject({ type: 'CALL', from: caller.toLowerCase(), to: emitter.toLowerCase(), value: '0', error: null, calls: [] });
    expect(trace.calls[0]!.input.slice(0, 10)).not.toBe(tx.input.slice(0, 10));
    // Every quantity the node reported, in decimal.
    const node = await ctx().chain.publicClient.request({ method: 'debug_traceTransaction' as any, params: [nestedPing, { tracer: 'callTracer' }] as any }) as any;
    expect([trace.gas, trace.gasUsed, trace.output]).toEqual([BigInt(node.gas).toString(), BigInt(node.gasUsed).toString(), node.output]);
    expect([trace.calls[0]!.gas, trace.calls[0]!.gasUsed, trace.calls[0]!.input, trace.calls[0]!.output]).toEqual([
      BigInt(node.calls[0].gas).toString(),
      BigInt(node.calls[0].gasUsed).toString(),
      node.calls[0].input,
      node.calls[0].output,
    ]);
  });

  it('traces a failed transaction with the reason its frame failed, and 404s an unknown hash', async () => {
    const failed = await call(ctx(), 'POST', `/api/v1/transaction/${ctx().demo.transactions.failed}/trace`, undefined, await bearer());
    expect(failed.body.result).toMatchObject({ type: 'CALL', to: ctx().demo.contracts.reverter.toLowerCase(), error: 'execution reverted', calls: [] });
    const missing = await call(ctx(), 'POST', `/api/v1/transaction/${UNKNOWN_HASH}/trace`, undefined, await bearer());
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 404, body: errorEnvelope('Error! Transaction not found') });
    const malformed = await call(ctx(), 'POST', '/api/v1/transaction/0x1234/trace', undefined, await bearer());
    expect({ status: malformed.status, body: malformed.body }).toEqual({ status: 400, body: errorEnvelope('Error! Invalid transaction hash format') });
  });

  it('keeps a computed trace: asking again does not trace again', async () => {
    const deployChild = ctx().demo.transactions.deployments.child;
    const path = `/api/v1/transaction/${deployChild}/trace`;
    const first = await call(ctx(), 'POST', path, undefined, await bearer());
    expect(first.body.result.calls[0]).toMatchObject({ type: 'CREATE', to: ctx().demo.contracts.child.toLowerCase(), value: '1000' });
    const request = vi.spyOn(ctx().explorer.chain, 'request');
    try {
      const again = await call(ctx(), 'POST', path, undefined, await bearer());
      expect(again.body).toEqual(first.body);
      expect(request.mock.calls.filter(([method]) => method === 'debug_traceTransaction' || method === 'trace_transaction')).toEqual([]);
    } finally {
      request.mockRestore();
    }
  });

  it('reads the same tree from trace_transaction on a node without the debug API, and answers 501 on a node without either', async () => {
    const relay: NodeRelay = await startNodeRelay(ctx().chain.rpcUrl);
    closers.push(() => relay.close());
    relay.refused.add('debug_traceTransaction').add('debug_traceBlockByHash');
    const explorer = await createExplorer({
      rpcUrl: relay.url,
      storage: await ctx().options.storage(),
      logger: pino({ level: 'silent' }),
      indexer: FAST_INDEXER,
      rateLimits: { enabled: false },
    });
    const api = await ctx().options.serve(explorer);
    closers.push(async () => {
      await api.close();
      await explorer.close();
    });
    await explorer.start();
    const head = await ctx().chain.publicClient.getBlockNumber();
    await waitFor(() => indexedThrough(explorer, head), `indexing block ${head}`, 60_000);
    const own = { ...ctx(), url: api.url, explorer };
    const headers = (await signUp(own)).bearer;

    const { nestedPing, transfer, deployments } = ctx().demo.transactions;
    for (const hash of [nestedPing, deployments.child]) {
      const viaTraceApi = await call(own, 'POST', `/api/v1/transaction/${hash}/trace`, undefined, headers);
      const viaDebugApi = await call(ctx(), 'POST', `/api/v1/transaction/${hash}/trace`, undefined, await bearer());
      expect(viaTraceApi.status, hash).toBe(200);
      expect(shapeOf(viaTraceApi.body.result), hash).toEqual(shapeOf(viaDebugApi.body.result));
    }
    expect(relay.methods).toContain('trace_transaction');

    relay.refused.add('trace_transaction');
    const refused = await call(own, 'POST', `/api/v1/transaction/${transfer}/trace`, undefined, headers);
    expect(refused.status).toBe(501);
    expect(refused.body).toEqual(
      errorEnvelope('Error! Transaction tracing is not available on the upstream node: the method debug_traceTransaction does not exist/is not available'),
    );
  });

  it('POST /transaction/batch answers in input order, null for unknown hashes, from one storage round trip', async () => {
    await indexedToHead(ctx());
    const { nestedPing, transfer, failed } = ctx().demo.transactions;
    const hashes = [nestedPing, UNKNOWN_HASH, transfer, failed.toUpperCase().replace('0X', '0x'), nestedPing];
    const { storage } = ctx().explorer;
    const many = vi.spyOn(storage, 'getTransactions');
    const one = vi.spyOn(storage, 'getTransaction');
    let answer;
    try {
      answer = await call(ctx(), 'POST', '/api/v1/transaction/batch', { hashes }, await bearer());
      expect(many.mock.calls).toEqual([[hashes.map((hash) => hash.toLowerCase())]]);
      expect(one).not.toHaveBeenCalled();
    } finally {
      many.mockRestore();
      one.mockRestore();
    }
    expect(answer.status).toBe(200);
    const records = await Promise.all([nestedPing, transfer, failed].map(async (hash) => (await get(ctx(), `/api/v1/transaction/${hash}`)).body.result));
    expect(answer.body.result).toEqual([records[0], null, records[1], records[2], records[0]]);
  });

  it('POST /transaction/batch takes 1 to 100 well-formed hashes', async () => {
    const headers = await bearer();
    const cases: [unknown, string][] = [
      [{ hashes: [] }, 'Error! Invalid request: hashes: must hold at least one hash'],
      [{ hashes: Array.from({ length: 101 }, () => UNKNOWN_HASH) }, 'Error! Invalid request: hashes: must hold at most 100 hashes'],
      [{ hashes: [UNKNOWN_HASH, '0x1234'] }, 'Error! Invalid request: hashes.1: must be a 0x-prefixed 32-byte hash'],
      [{ hashes: UNKNOWN_HASH }, expect.stringMatching(/^Error! Invalid request: hashes: /) as unknown as string],
      [{}, expect.stringMatching(/^Error! Invalid request: hashes: /) as unknown as string],
    ];
    for (const [body, message] of cases) {
      const answer = await call(ctx(), 'POST', '/api/v1/transaction/batch', body, headers);
      expect({ status: answer.status, body: answer.body }, JSON.stringify(body).slice(0, 80)).toEqual({ status: 400, body: errorEnvelope(message) });
    }
    const full = await call(ctx(), 'POST', '/api/v1/transaction/batch', { hashes: Array.from({ length: 100 }, () => UNKNOWN_HASH) }, headers);
    expect(full.body.result).toEqual(Array.from({ length: 100 }, () => null));
  });
}
