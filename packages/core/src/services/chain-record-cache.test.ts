import { describe, expect, it } from 'vitest';
import { createEventHub, type ReorgEvent } from '../events/index.js';
import type { Hex, Storage, StoredTransaction } from '../storage/index.js';
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

  describe('transactions by hashes', () => {
    const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
    const tx = (n: number) => ({ hash: hash(n), input: '0x', logsBloom: '0x' }) as unknown as StoredTransaction;
    /** Storage whose getTransactions knows transactions 1 to 5 and records what it was asked. */
    function storage() {
      const asked: Hex[][] = [];
      const known = new Map([1, 2, 3, 4, 5].map((n) => [hash(n), tx(n)]));
      const getTransactions = async (hashes: Hex[]) => {
        asked.push(hashes);
        return hashes.map((h) => known.get(h) ?? null);
      };
      return { asked, storage: { getTransactions } as unknown as Storage };
    }

    it('answers in order, reading only the hashes not kept, in one storage call', async () => {
      const cache = new ChainRecordCache(createEventHub(), 1_000_000);
      const { asked, storage: store } = storage();
      expect(await cache.transactions(store, [hash(2), hash(4)])).toEqual([tx(2), tx(4)]);
      expect(await cache.transactions(store, [hash(1), hash(2), hash(9), hash(4), hash(3)])).toEqual([tx(1), tx(2), null, tx(4), tx(3)]);
      expect(asked).toEqual([[hash(2), hash(4)], [hash(1), hash(9), hash(3)]]);
      expect(await cache.transactions(store, [hash(3), hash(1)])).toEqual([tx(3), tx(1)]);
      expect(asked).toHaveLength(2);
    });

    it('shares what it keeps with single reads, and forgets it on a reorg', async () => {
      const hub = createEventHub();
      const cache = new ChainRecordCache(hub, 1_000_000);
      const { asked, storage: store } = storage();
      await cache.transactions(store, [hash(1)]);
      const single = counted(tx(1));
      expect(await cache.get(`tx:${hash(1)}`, single, () => 10)).toEqual(tx(1));
      expect(single.calls).toBe(0);
      hub.emit('reorg', REORG);
      await cache.transactions(store, [hash(1)]);
      expect(asked).toHaveLength(2);
    });

    it('reads a page whole until its list was mostly kept, then by its hashes and the kept records; a vanished record reads it whole again', async () => {
      const cache = new ChainRecordCache(createEventHub(), 1_000_000);
      const { asked, storage: store } = storage();
      let listed = [1, 2, 3];
      const hashes = counted(null);
      const rows = counted(null);
      const page = () =>
        cache.transactionPage(
          store,
          'address:a',
          async () => (await hashes(), listed.map(hash)),
          async () => (await rows(), listed.flatMap((n) => (n <= 5 ? [tx(n)] : []))),
        );
      // Nothing was kept: read whole (and kept), twice, as the first read found none kept.
      expect(await page()).toEqual([tx(1), tx(2), tx(3)]);
      expect(await page()).toEqual([tx(1), tx(2), tx(3)]);
      expect([hashes.calls, rows.calls]).toEqual([0, 2]);
      // The second read found them all kept: now hashes, and no record read.
      expect(await page()).toEqual([tx(1), tx(2), tx(3)]);
      expect([hashes.calls, rows.calls, asked.length]).toEqual([1, 2, 0]);
      // A listed hash whose record is gone (rolled back meanwhile): the page is read whole.
      listed = [1, 9];
      expect(await page()).toEqual([tx(1)]);
      expect([hashes.calls, rows.calls, asked]).toEqual([2, 3, [[hash(9)]]]);
    });

    it('reads every time with a budget of 0', async () => {
      const cache = new ChainRecordCache(createEventHub(), 0);
      const { asked, storage: store } = storage();
      await cache.transactions(store, [hash(1)]);
      await cache.transactions(store, [hash(1)]);
      expect(asked).toHaveLength(2);
    });
  });
});
