import fc from 'fast-check';
import { expect, it } from 'vitest';
import { waitFor } from '../api/context.js';
import { openClient, type FuzzSocketClass, type RecordingClient } from './socket-client.js';
import { describeErrors, FUZZ_SOCKET_LIMITS, type SocketFuzzContext } from './socket-context.js';
import { ConnectionModel, frameBytes, frames, type Frame, type FrameTargets } from './socket-frames.js';
import { REPLY_EVENTS, serverMessageProblem } from './socket-verdicts.js';
import { FUZZ_TEST_TIMEOUT_MS, fuzzSeed, reportFailures } from './seed.js';

/** Options of {@link socketProtocolFuzzTests}. */
export interface SocketProtocolFuzzOptions {
  /** Generated frames in all (default 4,000). */
  frames: number;
  /** Connections they are spread over. */
  connections: number;
  WebSocket: FuzzSocketClass;
}

const PING = JSON.stringify({ event: 'ping' });

function replyEvent(text: string): string | undefined {
  try {
    const event = (JSON.parse(text) as { event?: unknown }).event;
    return typeof event === 'string' && REPLY_EVENTS.has(event) ? event : undefined;
  } catch {
    return undefined;
  }
}

function describeFrame(frame: Frame): string {
  return frame.kind === 'binary' ? `binary ${Buffer.from(frame.bytes).toString('hex').slice(0, 60)}` : JSON.stringify(frame.text.slice(0, 160));
}

function send(client: RecordingClient, frame: Frame): void {
  if (frame.kind === 'binary') client.socket.send(frame.bytes, { binary: true });
  else client.socket.send(frame.text);
}

/**
 * Sends each connection its frames back to back, then a ping, and checks every answer against
 * the model: one answer per frame, in order, of the event the protocol prescribes; every frame
 * the server sent of a protocol shape; the connection still open.
 */
async function runConnections(context: SocketFuzzContext, WebSocket: FuzzSocketClass, batches: readonly Frame[][], targets: FrameTargets): Promise<{ failures: string[]; models: ConnectionModel[] }> {
  const clients = await Promise.all(batches.map(() => openClient(WebSocket, context.wsUrl)));
  try {
    batches.forEach((batch, i) => {
      for (const frame of batch) send(clients[i]!, frame);
      clients[i]!.socket.send(PING);
    });
    await Promise.all(clients.map((client, i) => client.receivedAtLeast(batches[i]!.length + 1, (text) => replyEvent(text) !== undefined, `answers to ${batches[i]!.length} frames`)));
    const failures: string[] = [];
    const models = batches.map((batch, i) => {
      const client = clients[i]!;
      const model = new ConnectionModel(targets, FUZZ_SOCKET_LIMITS);
      for (const text of client.received) {
        const problem = serverMessageProblem(text);
        if (problem) failures.push(`connection ${i} got ${JSON.stringify(text.slice(0, 200))}: ${problem}`);
      }
      const replies = client.received.filter((text) => replyEvent(text) !== undefined);
      batch.forEach((frame, n) => {
        const expected = model.expect(frame);
        const reply = replies[n];
        if (reply === undefined || replyEvent(reply) !== expected) failures.push(`connection ${i} frame ${n} ${describeFrame(frame)} → ${reply?.slice(0, 200) ?? 'no answer'}: expected ${expected}`);
      });
      if (replyEvent(replies[batch.length] ?? '') !== 'pong') failures.push(`connection ${i}: no pong after its frames`);
      if (client.closeCode !== null) failures.push(`connection ${i} was closed with ${client.closeCode}`);
      if (client.binaryFrames > 0) failures.push(`connection ${i} got ${client.binaryFrames} binary frames`);
      return model;
    });
    return { failures, models };
  } finally {
    for (const client of clients) client.socket.terminate();
  }
}

/** Current subscriptions at `/ws`, over every channel. */
function subscriptionCount(context: SocketFuzzContext): number {
  return Object.values(context.explorer.sockets.stats().endpoints['/ws'] ?? {}).reduce((sum, count) => sum + count, 0);
}

async function targetsOf(context: SocketFuzzContext): Promise<FrameTargets> {
  const head = (await context.explorer.storage.getCursor())?.number ?? 0n;
  const { contracts, accounts } = context.demo;
  return { addresses: [...accounts.slice(0, 4), contracts.token, contracts.nft, contracts.quoteToken], head, valid: context.valid };
}

/** Generated frames on the channel protocol, floods of subscriptions, and frames the transport must refuse. */
export function socketProtocolFuzzTests(ctx: () => SocketFuzzContext, options: SocketProtocolFuzzOptions): void {
  it(`answers ${options.frames} generated frames on ${options.connections} connections with the protocol's answer to each, in order, keeping every socket open`, async () => {
    const context = ctx();
    const seed = fuzzSeed();
    const targets = await targetsOf(context);
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype);
    const generated = fc.sample(
      frames(targets).filter((frame) => frameBytes(frame) <= FUZZ_SOCKET_LIMITS.maxMessageBytes),
      { seed, numRuns: options.frames },
    );
    const perConnection = Math.ceil(generated.length / options.connections);
    const batches = Array.from({ length: options.connections }, (_, i) => generated.slice(i * perConnection, (i + 1) * perConnection));
    const { failures, models } = await runConnections(context, options.WebSocket, batches, targets);
    reportFailures(failures, seed);
    // The kinds of frames that matter were really sent and answered.
    expect(models.some((model) => model.peak === FUZZ_SOCKET_LIMITS.maxSubscriptions)).toBe(true);
    expect(generated.filter((frame) => frame.kind === 'binary').length).toBeGreaterThan(options.frames / 50);
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await waitFor(() => subscriptionCount(context) === 0 || null, 'subscriptions of closed connections to be dropped');
    expect(describeErrors(context.errors)).toBe('');
  }, FUZZ_TEST_TIMEOUT_MS);

  it('answers subscribe floods past the per-connection limit and rapid subscribe/unsubscribe churn in order, and leaks no subscription', async () => {
    const context = ctx();
    const seed = fuzzSeed();
    const targets = await targetsOf(context);
    const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`);
    const flood = fc.sample(
      fc.record({ channel: fc.constantFrom('address_transactions', 'token_transfers', 'token_price'), address }).map((message): Frame => ({ kind: 'text', text: JSON.stringify({ event: 'subscribe', ...message }) })),
      { seed, numRuns: 400 },
    );
    const churn = fc.sample(
      fc.record({ event: fc.constantFrom('subscribe', 'unsubscribe'), channel: fc.constantFrom('blocks', 'transactions', 'pending_transactions', 'finality', 'validators', 'consensus', 'address_transactions'), address: fc.constantFrom(undefined, ...targets.addresses) })
        .map((message): Frame => ({ kind: 'text', text: JSON.stringify(message) })),
      { seed: seed + 1, numRuns: 1_500 },
    );
    const { failures, models } = await runConnections(context, options.WebSocket, [flood, churn, [...churn].reverse()], targets);
    reportFailures(failures, seed);
    expect(models[0]!.subscriptions.size).toBe(FUZZ_SOCKET_LIMITS.maxSubscriptions);
    await waitFor(() => subscriptionCount(context) === 0 || null, 'subscriptions of closed connections to be dropped');
    expect(describeErrors(context.errors)).toBe('');
  }, FUZZ_TEST_TIMEOUT_MS);

  it('closes a connection that sends an oversized message (1009) or text that is not UTF-8 (1007), and only that one', async () => {
    const context = ctx();
    const seed = fuzzSeed();
    const limit = FUZZ_SOCKET_LIMITS.maxMessageBytes;
    const cases = fc.sample(
      fc.oneof(
        fc.record({ bytes: fc.integer({ min: limit + 1, max: limit * 64 }), binary: fc.boolean() }).map(({ bytes, binary }) => ({ data: Buffer.alloc(bytes, binary ? 0xab : 0x61), binary, code: 1009 })),
        fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ data: Buffer.concat([Buffer.from('{"event":"ping"'), Buffer.from([0xc3, 0x28]), Buffer.from(bytes)]), binary: false, code: 1007 })),
      ),
      { seed, numRuns: 24 },
    );
    const bystander = await openClient(options.WebSocket, context.wsUrl);
    const failures: string[] = [];
    for (const [i, sent] of cases.entries()) {
      const client = await openClient(options.WebSocket, context.wsUrl);
      client.socket.send(sent.data, { binary: sent.binary });
      const code = await client.closed();
      if (code !== sent.code) failures.push(`case ${i} (${sent.data.length} bytes, binary ${sent.binary}) closed with ${code}, not ${sent.code}`);
      for (const text of client.received) if (serverMessageProblem(text)) failures.push(`case ${i} got ${text.slice(0, 200)}`);
    }
    reportFailures(failures, seed);
    bystander.socket.send(PING);
    await bystander.receivedAtLeast(1, (text) => replyEvent(text) === 'pong', 'the bystander’s pong');
    expect(bystander.closeCode).toBeNull();
    bystander.socket.terminate();
    expect(describeErrors(context.errors)).toBe('');
  }, FUZZ_TEST_TIMEOUT_MS);
}
