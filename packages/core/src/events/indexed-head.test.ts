import { memoryStorage } from '@chainlens/storage-memory';
import { describe, expect, it, vi } from 'vitest';
import type { Storage } from '../storage/index.js';
import { makeChain } from '@chainlens/testing';
import { createEventHub } from './hub.js';
import { IndexedHead } from './indexed-head.js';

/** Memory storage holding `blocks` blocks, counting its cursor reads. */
async function countingStorage(blocks: number): Promise<{ storage: Storage; reads: () => number }> {
  const storage = memoryStorage();
  await storage.init();
  for (const bundle of makeChain({ blocks, txPerBlock: 1 })) await storage.writeBlock(bundle);
  let reads = 0;
  const getCursor = storage.getCursor.bind(storage);
  storage.getCursor = () => {
    reads++;
    return getCursor();
  };
  return { storage, reads: () => reads };
}

describe('IndexedHead', () => {
  it('reads the cursor once and serves it until it is older than maxAgeMs', async () => {
    const { storage, reads } = await countingStorage(3);
    // The clock moves only when told: a pause of a loaded machine cannot age the cursor early.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const head = new IndexedHead(storage, createEventHub(), 40);
      expect((await head.current())?.number).toBe(2n);
      vi.advanceTimersByTime(40);
      expect((await head.current())?.number).toBe(2n);
      expect(reads()).toBe(1);
      vi.advanceTimersByTime(1);
      await head.current();
      expect(reads()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shares one storage read between concurrent callers', async () => {
    const { storage, reads } = await countingStorage(2);
    const head = new IndexedHead(storage, createEventHub(), 1_000);
    const all = await Promise.all(Array.from({ length: 20 }, () => head.current()));
    expect(new Set(all.map((cursor) => cursor?.number))).toEqual(new Set([1n]));
    expect(reads()).toBe(1);
  });

  it('takes a written block from the hub without reading storage', async () => {
    const { storage, reads } = await countingStorage(2);
    const hub = createEventHub();
    const head = new IndexedHead(storage, hub, 60_000);
    await head.current();
    const [next] = makeChain({ blocks: 1, parent: (await storage.getBlockByNumber(1n))!, txPerBlock: 1 });
    await storage.writeBlock(next!);
    hub.emit('block', next!);
    expect(await head.current()).toEqual({ number: 2n, hash: next!.block.hash });
    expect(reads()).toBe(1);
  });

  it('reads storage again after a reorg', async () => {
    const { storage, reads } = await countingStorage(4);
    const hub = createEventHub();
    const head = new IndexedHead(storage, hub, 60_000);
    expect((await head.current())?.number).toBe(3n);
    await storage.rollbackTo(1n);
    const ancestor = (await storage.getBlockByNumber(1n))!;
    hub.emit('reorg', { commonAncestor: { blockNumber: 1n, blockHash: ancestor.hash }, removedBlockHashes: [] });
    expect((await head.current())?.number).toBe(1n);
    expect(reads()).toBe(2);
  });

  it('keeps a block heard while a storage read was in flight over that older read', async () => {
    const { storage } = await countingStorage(2);
    const hub = createEventHub();
    const head = new IndexedHead(storage, hub, 60_000);
    const [next] = makeChain({ blocks: 1, parent: (await storage.getBlockByNumber(1n))!, txPerBlock: 1 });
    const inFlight = head.current();
    hub.emit('block', next!);
    expect((await inFlight)?.number).toBe(2n);
    expect((await head.current())?.number).toBe(2n);
  });

  it('once it hears blocks, takes a newer stored block when it hears it, or after it stayed unheard for maxAgeMs', async () => {
    const { storage } = await countingStorage(2);
    const hub = createEventHub();
    const head = new IndexedHead(storage, hub, 40);
    const chain = makeChain({ blocks: 2, parent: (await storage.getBlockByNumber(1n))!, txPerBlock: 1 });
    await storage.writeBlock(chain[0]!);
    hub.emit('block', chain[0]!);
    // Block 3 is stored; its event is still on its way.
    await storage.writeBlock(chain[1]!);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await head.current())?.number).toBe(2n);
    hub.emit('block', chain[1]!);
    expect((await head.current())?.number).toBe(3n);
    // A block whose event never comes is taken from storage in the end.
    const [unheard] = makeChain({ blocks: 1, parent: chain[1]!.block, txPerBlock: 1, seed: 'unheard' });
    await storage.writeBlock(unheard!);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await head.current())?.number).toBe(3n);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await head.current())?.number).toBe(4n);
  });
});
