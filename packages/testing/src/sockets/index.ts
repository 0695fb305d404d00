import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { backpressureTests } from './backpressure.js';
import { chainChannelTests } from './chain-channels.js';
import { createChannelContext, type ChannelContext, type ChannelSuiteOptions } from './context.js';
import { credentialTests } from './credentials.js';
import { customChannelAndAuthTests } from './custom-and-auth.js';
import { protocolTests } from './protocol.js';
import { reorgAndReplayTests } from './reorg-replay.js';

export type { ChannelSuiteOptions } from './context.js';
export type { ClientSocket, ClientSocketClass } from './client.js';

/**
 * The WebSocket channel suite: the protocol, its limits, all nine channels against a real anvil
 * with real transactions, reorgs, replay, custom channels, authentication and connections that
 * close when their credentials stop holding, through whatever adapter and storage `options` provide.
 *
 * @example
 * ```ts
 * channelsSuite({ name: 'fastify + memory', storage: () => memoryStorage(), serve, WebSocket });
 * ```
 */
export function channelsSuite(options: ChannelSuiteOptions): void {
  describe(`WebSocket channels (${options.name})`, () => {
    let context: ChannelContext | undefined;
    const ctx = () => {
      if (!context) throw new Error('channel suite context was not created');
      return context;
    };
    beforeAll(async () => {
      context = await createChannelContext(options);
    });
    afterEach(() => context?.closeClients());
    afterAll(async () => {
      await context?.close();
    });
    describe('protocol and limits', () => protocolTests(ctx));
    describe('built-in channels', () => chainChannelTests(ctx));
    describe('custom channels and authentication', () => customChannelAndAuthTests(ctx));
    describe('credentials that expire or are revoked', () => credentialTests(ctx));
    describe('backpressure', () => backpressureTests(ctx));
    // Last: it reverts the chain.
    describe('reorgs and replay', () => reorgAndReplayTests(ctx));
  });
}
