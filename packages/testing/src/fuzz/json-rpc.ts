import fc from 'fast-check';
import { expect, it } from 'vitest';
import { isNodeReadMethod, JSON_RPC_CODES, jsonRpcMethods } from '@chainlens/core';
import { get } from '../api/context.js';
import type { FuzzContext } from './context.js';
import { FUZZ_TEST_TIMEOUT_MS, fuzzSeed, reportFailures } from './seed.js';
import { sendAll, type SentRequest } from './send.js';
import { hostileJson, hostileText } from './values.js';
import { envelopeProblem, jsonRpcResponseProblem, type RawAnswer } from './verdicts.js';

/** Options of {@link jsonRpcFuzzTests}. */
export interface JsonRpcFuzzOptions {
  bodies: number;
  concurrency: number;
}

/** Methods that must never run, whatever the node would do with them. */
const FORBIDDEN = ['debug_traceTransaction', 'anvil_mine', 'anvil_setBalance', 'evm_revert', 'evm_snapshot', 'admin_peers', 'personal_sign', 'eth_sendTransaction', 'eth_newFilter', 'txpool_content', 'hardhat_reset'];

/** A generated body, and what its answer must be. */
interface RpcCase extends SentRequest {
  /** The JSON sent (`undefined` for text that is not JSON). */
  sent: unknown;
  /** The whole body's expected error code, when the body is refused as a whole. */
  wholeError?: number;
  /** The HTTP status of that refusal (default 200, as JSON-RPC errors go out). */
  httpStatus?: number;
}

const id = fc.oneof(fc.integer(), fc.string({ maxLength: 12 }), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }));
const badId = fc.constantFrom<unknown>({}, [], true, [1]);

/** One entry of a body: a request of a known or unknown method with any params and id, or junk. */
function entry(methods: string[]): fc.Arbitrary<unknown> {
  const method = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...methods) }, { weight: 1, arbitrary: fc.constantFrom(...FORBIDDEN) }, { weight: 1, arbitrary: hostileText });
  const params = fc.oneof(
    { weight: 5, arbitrary: fc.array(fc.oneof(hostileJson, fc.constantFrom('latest', '0x1', '0x0', `0x${'0'.repeat(40)}`, true)), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), hostileJson, { maxKeys: 2 }) },
    { weight: 1, arbitrary: hostileJson },
  );
  const request = fc.record(
    { jsonrpc: fc.oneof({ weight: 9, arbitrary: fc.constant<unknown>('2.0') }, { weight: 1, arbitrary: fc.constantFrom<unknown>('1.0', 2, null, '') }), method, params, id: fc.oneof({ weight: 8, arbitrary: id }, { weight: 1, arbitrary: badId }) },
    { requiredKeys: ['jsonrpc', 'method'] },
  );
  return fc.oneof({ weight: 8, arbitrary: request.map((value) => (value.params === undefined ? withoutParams(value) : value)) }, { weight: 1, arbitrary: hostileJson });
}

function withoutParams(value: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...value };
  delete rest.params;
  return rest;
}

/** Bodies: single requests, batches of mixed entries, the empty batch, oversized batches, and text that is not JSON. */
function bodies(methods: string[], maxBatch: number, bodyLimit: number): fc.Arbitrary<RpcCase> {
  // An empty batch, or one over the limit, is refused whole with one Invalid Request.
  const refusedWhole = (sent: unknown) => Array.isArray(sent) && (sent.length === 0 || sent.length > maxBatch);
  const json = (sent: unknown): RpcCase => ({
    method: 'POST',
    url: '/',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(sent),
    sent,
    ...(refusedWhole(sent) && { wholeError: JSON_RPC_CODES.INVALID_REQUEST }),
  });
  const cheap = { jsonrpc: '2.0', method: 'eth_chainId', params: [], id: 1 };
  return fc.oneof(
    { weight: 10, arbitrary: entry(methods).map((sent) => json(sent)) },
    { weight: 6, arbitrary: fc.array(entry(methods), { minLength: 1, maxLength: 12 }).map((sent) => json(sent)) },
    { weight: 1, arbitrary: fc.constant(json([])) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 20 }).map((extra) => json(Array.from({ length: maxBatch + extra }, () => cheap))) },
    {
      weight: 1,
      arbitrary: fc.constant<RpcCase>({
        ...json(cheap),
        body: JSON.stringify({ ...cheap, params: ['x'.repeat(bodyLimit)] }),
        sent: undefined,
        wholeError: JSON_RPC_CODES.INVALID_REQUEST,
        httpStatus: 413,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.oneof(fc.constantFrom('{', '[{"jsonrpc":"2.0",', '{"jsonrpc":"2.0","method":"eth_chainId",}', "{'a':1}", 'nul', '\u0000', ''), fc.string({ maxLength: 30 }).filter((text) => !isJson(text))).map(
        (text): RpcCase => ({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, body: text, sent: undefined, wholeError: JSON_RPC_CODES.PARSE_ERROR }),
      ),
    },
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validId(value: unknown): boolean {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The error code JSON-RPC 2.0 prescribes for one entry, `null` when it may succeed or fail on
 * the node's terms, `'none'` for a valid notification (no reply).
 */
function expectedCode(sent: unknown, methods: ReadonlySet<string>): number | null {
  if (!isObject(sent) || sent.jsonrpc !== '2.0' || typeof sent.method !== 'string') return JSON_RPC_CODES.INVALID_REQUEST;
  if (sent.params !== undefined && (typeof sent.params !== 'object' || sent.params === null)) return JSON_RPC_CODES.INVALID_REQUEST;
  if ('id' in sent && !validId(sent.id)) return JSON_RPC_CODES.INVALID_REQUEST;
  if (!methods.has(sent.method)) return JSON_RPC_CODES.METHOD_NOT_FOUND;
  if (sent.params !== undefined && !Array.isArray(sent.params)) return JSON_RPC_CODES.INVALID_PARAMS;
  return null;
}

/** What is wrong with the answer to one entry (`reply` undefined when none came), or `null`. */
function entryProblem(sent: unknown, reply: unknown, methods: ReadonlySet<string>): string | null {
  const code = expectedCode(sent, methods);
  const notification = isObject(sent) && !('id' in sent) && code !== JSON_RPC_CODES.INVALID_REQUEST;
  if (notification) return reply === undefined ? null : 'a notification was answered';
  if (reply === undefined) return 'no reply';
  const problem = jsonRpcResponseProblem(reply);
  if (problem) return problem;
  const response = reply as { id: unknown; error?: { code: number } };
  const sentId = isObject(sent) && validId(sent.id) ? sent.id : null;
  if (response.id !== sentId) return `id ${JSON.stringify(response.id)} instead of ${JSON.stringify(sentId)}`;
  if (code !== null) return response.error?.code === code ? null : `code ${response.error?.code ?? 'none (a result)'} instead of ${code}`;
  // The explorer's own methods (all but the node's forwarded reads) check their parameters: a failure of theirs is never Internal error.
  if (!isNodeReadMethod((sent as { method: string }).method) && response.error?.code === JSON_RPC_CODES.INTERNAL_ERROR) return 'Internal error from an own method';
  return null;
}

/** What is wrong with the HTTP answer to a whole body, or `null`. */
function bodyProblem(rpc: RpcCase, answer: RawAnswer, methods: ReadonlySet<string>): string | null {
  if (answer.status >= 500 || answer.status < 0) return `HTTP ${answer.status}`;
  const entries = Array.isArray(rpc.sent) && rpc.wholeError === undefined ? rpc.sent : [rpc.sent];
  const expectsReply = entries.some((sent) => !(isObject(sent) && !('id' in sent) && expectedCode(sent, methods) !== JSON_RPC_CODES.INVALID_REQUEST));
  if (rpc.wholeError === undefined && !expectsReply) return answer.status === 204 && answer.text === '' ? null : `HTTP ${answer.status} ${answer.text.slice(0, 80)} instead of 204 for notifications only`;
  if (answer.status !== (rpc.httpStatus ?? 200)) return `HTTP ${answer.status}`;
  const reply = JSON.parse(answer.text) as unknown;
  // Adapters refuse an oversized body before the kernel sees which route it is for, with decisions.md's envelope.
  if (answer.status === 413 && envelopeProblem(answer) === null) return null;
  if (rpc.wholeError !== undefined) {
    const problem = jsonRpcResponseProblem(reply);
    return problem ?? ((reply as { error?: { code: number } }).error?.code === rpc.wholeError ? null : `code instead of ${rpc.wholeError}`);
  }
  if (!Array.isArray(rpc.sent)) return entryProblem(rpc.sent, reply, methods);
  if (!Array.isArray(reply)) return 'a batch answered without an array';
  // Replies keep the batch's order, notifications left out.
  let next = 0;
  for (const sent of rpc.sent) {
    const replied = !(isObject(sent) && !('id' in sent) && expectedCode(sent, methods) !== JSON_RPC_CODES.INVALID_REQUEST);
    const problem = entryProblem(sent, replied ? reply[next++] : undefined, methods);
    if (problem) return `entry ${JSON.stringify(sent).slice(0, 100)}: ${problem}`;
  }
  return next === reply.length ? null : `${reply.length} replies for ${next} requests`;
}

/** Generated JSON-RPC bodies at `POST /`: each answer must be exactly what JSON-RPC 2.0 prescribes. */
export function jsonRpcFuzzTests(ctx: () => FuzzContext, options: JsonRpcFuzzOptions): void {
  it(`answers ${options.bodies} generated JSON-RPC bodies (junk, batches, wrong params, every id type) as JSON-RPC 2.0 prescribes, never a 5xx`, async () => {
    const context = ctx();
    const { explorer } = context;
    const seed = fuzzSeed();
    const methods = [...jsonRpcMethods(explorer.services, explorer.chain).keys()];
    const known = new Set(methods);
    const cases = fc.sample(bodies(methods, explorer.config.rpc.maxBatch, explorer.config.http.bodyLimit), { seed, numRuns: options.bodies });
    const before = await context.chain.publicClient.getBlockNumber();
    const answers = await sendAll(context.url, cases, options.concurrency);
    const failures = cases.flatMap((rpc, i) => {
      const problem = bodyProblem(rpc, answers[i]!, known);
      return problem ? [`${rpc.body!.slice(0, 200)} → ${answers[i]!.status} ${answers[i]!.text.slice(0, 200)}: ${problem}`] : [];
    });
    reportFailures(failures, seed);
    // Every method was called, and nothing forbidden reached the node (it would have mined or moved the chain).
    const called = new Set(cases.flatMap((rpc) => (Array.isArray(rpc.sent) ? rpc.sent : [rpc.sent])).map((sent) => (isObject(sent) ? sent.method : undefined)));
    expect(methods.filter((method) => !called.has(method))).toEqual([]);
    expect(await context.chain.publicClient.getBlockNumber()).toBe(before);
    expect((await get(context, '/api/v1/health')).status).toBe(200);
  }, FUZZ_TEST_TIMEOUT_MS);
}
