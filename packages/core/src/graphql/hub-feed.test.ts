import { describe, expect, it } from 'vitest';
import { createEventHub } from '../events/index.js';
import type { BlockBundle } from '../storage/index.js';
import { HubFeeds } from './hub-feed.js';

const bundle = (number: number) => ({ block: { number: BigInt(number) } }) as unknown as BlockBundle;

describe('HubFeeds', () => {
  it('serves every subscriber of one key from one hub listener, shaping each event once into the same items', async () => {
    const hub = createEventHub();
    const feeds = new HubFeeds(hub);
    let shaped = 0;
    const select = (payload: BlockBundle) => {
      shaped++;
      return [{ number: payload.block.number }];
    };
    const [first, second] = [feeds.iterate('blocks', 'block', select), feeds.iterate('blocks', 'block', select)];
    const other = feeds.iterate('other', 'block', select);
    expect(hub.all.get('block')).toHaveLength(2);
    hub.emit('block', bundle(7));
    const [a, b] = await Promise.all([first.next(), second.next(), other.next()]);
    expect(a.value).toEqual({ number: 7n });
    expect(a.value).toBe(b.value);
    expect(shaped).toBe(2);

    await first.return!();
    expect(feeds.subscribers('blocks')).toBe(1);
    await second.return!();
    await other.return!();
    expect(hub.all.get('block') ?? []).toHaveLength(0);
  });

  it('ends every subscriber of a feed with the error its shaping failed with, and stops listening', async () => {
    const hub = createEventHub();
    const feeds = new HubFeeds(hub);
    const select = (): never[] => {
      throw new Error('storage unreachable');
    };
    const [first, second] = [feeds.iterate('blocks', 'block', select), feeds.iterate('blocks', 'block', select)];
    hub.emit('block', bundle(1));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(first.next()).rejects.toThrow('storage unreachable');
    await expect(second.next()).rejects.toThrow('storage unreachable');
    expect(hub.all.get('block') ?? []).toHaveLength(0);
  });

  it('derives a value from a payload once, whoever asks', () => {
    const feeds = new HubFeeds(createEventHub());
    const payload = bundle(1);
    let computed = 0;
    const compute = () => ++computed;
    expect([feeds.derived(payload, 'n', compute), feeds.derived(payload, 'n', compute), feeds.derived(payload, 'm', compute)]).toEqual([1, 1, 2]);
  });
});
