import { afterAll, beforeAll, describe } from 'vitest';
import { graphqlHttpFuzzTests } from './graphql-http.js';
import { graphqlSocketFuzzTests } from './graphql-socket.js';
import { createSocketFuzzContext, type SocketFuzzContext } from './socket-context.js';
import type { SocketFuzzSuiteOptions } from './socket-suite.js';

/** Options of {@link graphqlFuzzSuite}: how the explorer is served and stored, and how hard to fuzz. */
export interface GraphqlFuzzSuiteOptions extends Pick<SocketFuzzSuiteOptions, 'name' | 'storage' | 'serve' | 'WebSocket'> {
  /** Generated HTTP requests to `/graphql` (default 2,000). */
  requests?: number;
  /** graphql-ws connections fed junk (default 150). */
  socketConnections?: number;
  /** Requests in flight at once (default 8). */
  concurrency?: number;
}

/**
 * Hostile-input fuzzing of GraphQL, seeded and reproducible (`FUZZ_SEED` replays another seed):
 * documents generated from the introspected schema, documents past every limit, junk bodies,
 * batches and GET requests over HTTP, and junk `graphql-transport-ws` messages at `/graphql`.
 *
 * @example
 * ```ts
 * graphqlFuzzSuite({ name: 'fastify + memory', storage: () => memoryStorage(), serve, WebSocket });
 * ```
 */
export function graphqlFuzzSuite(options: GraphqlFuzzSuiteOptions): void {
  describe(`GraphQL hostile-input fuzzing (${options.name})`, () => {
    let context: SocketFuzzContext | undefined;
    const ctx = () => {
      if (!context) throw new Error('GraphQL fuzz suite context was not created');
      return context;
    };
    beforeAll(async () => {
      context = await createSocketFuzzContext(options);
    });
    afterAll(async () => {
      await context?.close();
    });
    describe('over HTTP', () => graphqlHttpFuzzTests(ctx, { requests: options.requests ?? 2_000, concurrency: options.concurrency ?? 8 }));
    describe('over graphql-ws', () => graphqlSocketFuzzTests(ctx, { connections: options.socketConnections ?? 150, WebSocket: options.WebSocket }));
  });
}
