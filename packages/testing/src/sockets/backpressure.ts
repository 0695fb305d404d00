import { expect, it } from 'vitest';
import { waitFor } from '../api/context.js';
import type { TestClient } from './client.js';
import { SUITE_SOCKET_LIMITS, type ChannelContext } from './context.js';

/** Publishes `count` stamped messages of `bytes` each on `firehose`, one per macrotask. */
async function publishBurst(context: ChannelContext, round: number, count: number, bytes: number): Promise<void> {
  const padding = 'x'.repeat(bytes);
  for (let i = 0; i < count; i++) {
    context.explorer.channels.publish('firehose', { round, i, sentAt: performance.now(), padding });
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Delivery delays (ms) of `round`'s messages at `client`. */
function delays(client: TestClient, round: number): number[] {
  return client.messages.flatMap((m, index) => (m.channel === 'firehose' && m.event === undefined && m.data.round === round ? [client.arrivals[index]! - m.data.sentAt] : []));
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** A client that stops reading is cut off without slowing anyone else. */
export function backpressureTests(ctx: () => ChannelContext): void {
  it(`terminates a client that stops reading once it leaves over ${SUITE_SOCKET_LIMITS.maxBufferedBytes} bytes unread; the others' delay stays within 50 ms of normal`, async () => {
    const { explorer } = ctx();
    explorer.channels.define('firehose');
    const healthy = await ctx().client();
    const stalled = await ctx().client();
    await healthy.subscribe('firehose');
    await stalled.subscribe('firehose');
    const count = 200;
    const bytes = 2_000;

    await publishBurst(ctx(), 1, count, bytes);
    await healthy.next((m) => m.data?.round === 1 && m.data.i === count - 1);
    const normal = percentile(delays(healthy, 1), 0.99);

    stalled.socket.pause();
    // Enough unread data to pass the limit through the kernel's socket buffers.
    for (let round = 2; explorer.sockets.stats().connections > 1 && round < 200; round++) {
      await publishBurst(ctx(), round, count, bytes);
      await healthy.next((m) => m.data?.round === round && m.data.i === count - 1);
      expect(percentile(delays(healthy, round), 0.99)).toBeLessThan(normal + 50);
    }
    await waitFor(() => explorer.sockets.stats().connections === 1 || null, 'the stalled client to be terminated');
    expect(healthy.socket.readyState).toBe(1);
  });
}
