import { afterAll, beforeAll, describe } from 'vitest';
import type { ApiSuiteOptions } from '../api/context.js';
import { createFuzzContext, type FuzzContext } from './context.js';
import { jsonRpcFuzzTests } from './json-rpc.js';
import { rawHttpFuzzTests } from './raw-http.js';
import { restFuzzTests } from './rest.js';

/** Options of {@link fuzzSuite}: how the explorer is served and stored, and how hard to fuzz. */
export interface FuzzSuiteOptions extends ApiSuiteOptions {
  /** Generated REST requests (default 10,000). */
  restRequests?: number;
  /** Generated JSON-RPC bodies (default 3,000). */
  jsonRpcBodies?: number;
  /** Malformed raw HTTP requests (default 600). */
  rawRequests?: number;
  /** Requests in flight at once (default 8). */
  concurrency?: number;
}

/**
 * Hostile-input fuzzing of every interface the explorer serves, seeded and reproducible
 * (`FUZZ_SEED` replays another seed): REST (v1, v2, Etherscan) from the route table's own zod
 * schemas, JSON-RPC, and malformed HTTP on raw sockets. Adapter and storage packages run it
 * unchanged; another interface (GraphQL documents, WebSocket frames) is one more `describe` here
 * over the same context, sender and verdicts.
 *
 * @example
 * ```ts
 * fuzzSuite({ name: 'fastify + memory', storage: () => memoryStorage(), serve: serveWithFastify });
 * ```
 */
export function fuzzSuite(options: FuzzSuiteOptions): void {
  describe(`hostile-input fuzzing (${options.name})`, () => {
    let context: FuzzContext | undefined;
    const ctx = () => {
      if (!context) throw new Error('fuzz suite context was not created');
      return context;
    };
    beforeAll(async () => {
      context = await createFuzzContext(options);
    });
    afterAll(async () => {
      await context?.close();
    });
    const concurrency = options.concurrency ?? 8;
    describe('REST', () => restFuzzTests(ctx, { requests: options.restRequests ?? 10_000, concurrency }));
    describe('JSON-RPC', () => jsonRpcFuzzTests(ctx, { bodies: options.jsonRpcBodies ?? 3_000, concurrency }));
    describe('raw HTTP', () => rawHttpFuzzTests(ctx, { requests: options.rawRequests ?? 600, concurrency }));
  });
}
