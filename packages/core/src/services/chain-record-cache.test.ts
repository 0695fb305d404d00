import { describe, expect, it } from 'vitest';
import { createEventHub, type ReorgEvent } from '../channels/index.js';
import { ChainRecordCache } from './chain-record-cache.js';

const REORG: ReorgEvent = { commonAncestor: { blockNumber: 1n, blockHash: `0x${'1'.repeat(64)}` }, removedBlockHashes: [`0x${'2'.repeat(64)}`] };

/** A read that counts its calls and answers `value`. */
function counted<T>(value: T) {
  const read = async () => {
    read.calls++;
    return value;
  };
  read.calls = 0;
  return read;
}

describe('ChainRecordCache', () => {
  it('reads a record once and serves it again across blocks', async () => {
    const hub = createEventHub();
    const cache = new ChainRecordCache(hub, 1_000_000);
    const read = counted({ n: 1 });
    await cache.get('a', read, () => 10);
    hub.emit('block', {} as never);
    expect(await cache.get('a', read, () => 10)).toEqual({ n: 1 });
    expect(read.calls).toBe(1);
  });

  it('never keeps an absent record, which may be indexed next', async () => {
    const cache = new ChainRecordCache(createEventHub(), 1_000_000);
    const read = counted(null);
    await cache.get('a', read, () => 10);
    await cache.get('a', read, () => 10);
    expect(read.calls).toBe(2);
  });

  it('forgets everything on a reorg', async () => {
    const hub = createEventHub();
    const cache = new ChainRecordCache(hub, 1_000_000);
    const read = counted({ n: 1 });
    await cache.get('a', read, () => 10);
    hub.emit('reorg', REORG);
    await cache.get('a', read, () => 10);
    expect(read.calls).toBe(2);
  });

  it('answers but does not keep a read that was under way when a reorg came', async () => {
    const hub = createEventHub();
    const cache = new ChainRecordCache(hub, 1_000_000);
    let finish!: (value: { n: number }) => void;
    const slow = () => new Promise<{ n: number }>((resolve) => (finish = resolve));
    const answer = cache.get('a', slow, () => 10);
    hub.emit('reorg', REORG);
    finish({ n: 0 });
    expect(await answer).toEqual({ n: 0 });
    const read = counted({ n: 1 });
    expect(await cache.get('a', read, () => 10)).toEqual({ n: 1 });
    expect(read.calls).toBe(1);
  });

  it('keeps no more than its byte budget, and nothing with a budget of 0', async () => {
    const hub = createEventHub();
    const small = new ChainRecordCache(hub, 100);
    const off = new ChainRecordCache(hub, 0);
    for (const cache of [small, off]) {
      const read = counted({ n: 1 });
      await cache.get('a', read, () => 60);
      await cache.get('b', read, () => 60);
      await cache.get('a', read, () => 60);
      expect(read.calls).toBe(3);
    }
  });
});
