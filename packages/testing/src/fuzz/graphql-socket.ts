import fc from 'fast-check';
import { expect, it } from 'vitest';
import { openClient, type FuzzSocketClass, type RecordingClient } from './socket-client.js';
import { describeErrors, type SocketFuzzContext } from './socket-context.js';
import { FUZZ_TEST_TIMEOUT_MS, fuzzSeed, reportFailures } from './seed.js';
import { hostileJson, hostileText } from './values.js';

/** Options of {@link graphqlSocketFuzzTests}. */
export interface GraphqlSocketFuzzOptions {
  /** Connections, each sent a few generated messages (default 150). */
  connections: number;
  WebSocket: FuzzSocketClass;
}

const PROTOCOL = 'graphql-transport-ws';
/** What graphql-ws sends. */
const SERVER_TYPES = new Set(['connection_ack', 'ping', 'pong', 'next', 'error', 'complete']);
/** The closes `graphql-transport-ws` prescribes for a misbehaving client (never 4500, the server's own failure), and 1009 for a message past the size limit. */
const ALLOWED_CLOSES = new Set([1000, 1009, 4400, 4401, 4403, 4408, 4409, 4429]);

const STACK_TRACE = /\n\s+at |\.[cm]?[jt]s:\d+/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with a message graphql-ws sent, or `null`. */
function serverMessageProblem(text: string): string | null {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!isObject(message) || typeof message.type !== 'string' || !SERVER_TYPES.has(message.type)) return 'not a graphql-transport-ws message';
  if (message.type !== 'error') return STACK_TRACE.test(text) ? 'a stack trace' : null;
  const errors = message.payload;
  if (!Array.isArray(errors) || errors.length === 0) return 'an error message without errors';
  return errors.every((error) => isObject(error) && typeof error.message === 'string' && error.message !== 'Error! Internal server error' && !STACK_TRACE.test(error.message))
    ? null
    : `malformed errors ${JSON.stringify(errors).slice(0, 160)}`;
}

/** One message a fuzzed graphql-ws client sends: JSON (usually protocol-shaped), text, or binary. */
type SocketMessage = { text: string } | { bytes: Uint8Array };

function messages(): fc.Arbitrary<SocketMessage> {
  const id = fc.oneof(fc.constantFrom('1', '2', 'same', ''), hostileJson);
  const document = fc.oneof(
    fc.constantFrom('subscription { blocks { number } }', '{ __typename }', 'subscription { blocks { number } transactions { hash } }', 'subscription { nope }', 'mutation { x }', '{', `{ ${'a: __typename '.repeat(40)}}`),
    hostileText,
  );
  const payload = fc.oneof({ weight: 4, arbitrary: fc.record({ query: document, variables: fc.option(hostileJson, { nil: undefined }) }, { requiredKeys: ['query'] }) }, { weight: 1, arbitrary: hostileJson });
  const protocolShaped = fc.oneof(
    fc.record({ type: fc.constant('subscribe'), id, payload }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.constant('complete'), id }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.constantFrom('connection_init', 'ping', 'pong'), payload: hostileJson }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.oneof(hostileJson, fc.constantFrom('next', 'error', 'connection_ack', 'start', 'stop')), id, payload }),
  );
  return fc.oneof(
    { weight: 8, arbitrary: protocolShaped.map((value) => ({ text: JSON.stringify(value) })) },
    { weight: 1, arbitrary: fc.oneof(hostileText, fc.constantFrom('{', '', 'null', '[]')).map((text) => ({ text })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 100 }).map((bytes) => ({ bytes })) },
  );
}

/** A connection's script: a first message (a good or junk `connection_init`, or something else), then junk. */
function scripts(): fc.Arbitrary<SocketMessage[]> {
  const init = fc.oneof(
    { weight: 4, arbitrary: fc.constant({ text: '{"type":"connection_init"}' }) },
    { weight: 2, arbitrary: hostileJson.map((payload) => ({ text: JSON.stringify({ type: 'connection_init', payload }) })) },
    { weight: 1, arbitrary: messages() },
  );
  return fc.tuple(init, fc.array(messages(), { minLength: 1, maxLength: 10 })).map(([first, rest]) => [first, ...rest]);
}

async function finish(client: RecordingClient): Promise<void> {
  // Still open: a ping must still be answered (graphql-ws pongs even before the ack).
  if (client.closeCode === null) {
    client.socket.send('{"type":"ping"}');
    await client.receivedAtLeast(1, (text) => text.includes('"pong"'), 'a pong');
  }
}

/** `graphql-transport-ws` at `/graphql` fed junk: only protocol messages and protocol closes come back. */
export function graphqlSocketFuzzTests(ctx: () => SocketFuzzContext, options: GraphqlSocketFuzzOptions): void {
  it(`answers ${options.connections} graphql-ws connections of junk (init payloads, subscribe ids and documents, unknown types, binary) with protocol messages and protocol close codes only`, async () => {
    const context = ctx();
    const seed = fuzzSeed();
    const url = `${context.url.replace(/^http/, 'ws')}/graphql`;
    const runs = fc.sample(scripts(), { seed, numRuns: options.connections });
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < runs.length) {
          const index = next++;
          const script = runs[index]!;
          const client = await openClient(options.WebSocket, url, { protocols: [PROTOCOL] });
          try {
            for (const message of script) {
              if (client.closeCode !== null) break;
              if ('bytes' in message) client.socket.send(message.bytes, { binary: true });
              else client.socket.send(message.text);
            }
            await finish(client);
            const what = `connection ${index} ${JSON.stringify(script.map((m) => ('text' in m ? m.text.slice(0, 80) : 'binary')))}`;
            for (const text of client.received) {
              const problem = serverMessageProblem(text);
              if (problem) failures.push(`${what} got ${text.slice(0, 200)}: ${problem}`);
            }
            if (client.closeCode !== null && !ALLOWED_CLOSES.has(client.closeCode)) failures.push(`${what} was closed with ${client.closeCode}`);
          } finally {
            client.socket.terminate();
          }
        }
      }),
    );
    reportFailures(failures, seed);
    // The endpoint still serves: a query over the socket runs.
    const control = await openClient(options.WebSocket, url, { protocols: [PROTOCOL] });
    control.socket.send('{"type":"connection_init"}');
    // The protocol wants the acknowledgement before any subscribe (else 4401).
    await control.receivedAtLeast(1, (text) => text.includes('"connection_ack"'), 'the acknowledgement');
    control.socket.send(JSON.stringify({ type: 'subscribe', id: 'control', payload: { query: '{ __typename }' } }));
    await control.receivedAtLeast(1, (text) => text.includes('"complete"'), 'the control query to complete');
    expect(control.closeCode).toBeNull();
    expect(control.received.map((text) => JSON.parse(text) as unknown)).toEqual([
      { type: 'connection_ack' },
      { type: 'next', id: 'control', payload: { data: { __typename: 'Query' } } },
      { type: 'complete', id: 'control' },
    ]);
    control.socket.terminate();
    expect(describeErrors(context.errors)).toBe('');
  }, FUZZ_TEST_TIMEOUT_MS);
}
