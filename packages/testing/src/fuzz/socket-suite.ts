import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelSuiteOptions } from '../sockets/context.js';
import { openClient, type FuzzSocketClass } from './socket-client.js';
import { socketConnectFuzzTests } from './socket-connect.js';
import { createSocketFuzzContext, describeErrors, type SocketFuzzContext } from './socket-context.js';
import { socketProtocolFuzzTests } from './socket-protocol.js';

/** Options of {@link socketFuzzSuite}: how the explorer is served and stored, and how hard to fuzz. */
export interface SocketFuzzSuiteOptions extends Pick<ChannelSuiteOptions, 'name' | 'storage' | 'serve'> {
  /** `ws`'s `WebSocket` class. */
  WebSocket: FuzzSocketClass;
  /** Generated channel-protocol frames (default 4,000). */
  frames?: number;
  /** Connections the frames are spread over (default 8). */
  connections?: number;
  /** Generated upgrade requests (default 300). */
  upgrades?: number;
  /** Raw connections with malformed handshakes or frames (default 200). */
  rawConnections?: number;
}

/**
 * Hostile-input fuzzing of the WebSocket channel protocol at `/ws`, seeded and reproducible
 * (`FUZZ_SEED` replays another seed): generated frames checked against a model of the protocol,
 * subscription floods and churn, oversized and non-UTF-8 messages, junk upgrades and raw junk
 * frames. Afterwards a control client still gets the next block, and nothing was logged as an error.
 *
 * @example
 * ```ts
 * socketFuzzSuite({ name: 'fastify + memory', storage: () => memoryStorage(), serve, WebSocket });
 * ```
 */
export function socketFuzzSuite(options: SocketFuzzSuiteOptions): void {
  describe(`WebSocket hostile-input fuzzing (${options.name})`, () => {
    let context: SocketFuzzContext | undefined;
    const ctx = () => {
      if (!context) throw new Error('socket fuzz suite context was not created');
      return context;
    };
    beforeAll(async () => {
      context = await createSocketFuzzContext(options);
    });
    afterAll(async () => {
      await context?.close();
    });
    const { WebSocket } = options;
    describe('channel protocol', () => socketProtocolFuzzTests(ctx, { frames: options.frames ?? 4_000, connections: options.connections ?? 8, WebSocket }));
    describe('upgrades and raw frames', () => socketConnectFuzzTests(ctx, { upgrades: options.upgrades ?? 300, rawConnections: options.rawConnections ?? 200, WebSocket }));
    it('still serves a control client the next block after the fuzzing, with nothing logged as an error', async () => {
      const control = await openClient(WebSocket, ctx().wsUrl);
      try {
        control.socket.send(JSON.stringify({ event: 'subscribe', channel: 'blocks' }));
        await control.receivedAtLeast(1, (text) => text.includes('"subscribed"'), 'the blocks acknowledgement');
        const mined = await ctx().mine();
        await control.receivedAtLeast(1, (text) => text.includes(`"blockNumber":"${mined}"`), `block ${mined} on the blocks channel`);
        const block = control.received.map((text) => JSON.parse(text) as Record<string, any>).find((message) => message.channel === 'blocks' && message.blockNumber === String(mined));
        expect(String(block?.data?.blockNumber)).toBe(String(mined));
        expect(control.closeCode).toBeNull();
      } finally {
        control.socket.terminate();
      }
      expect(describeErrors(ctx().errors)).toBe('');
    });
  });
}
