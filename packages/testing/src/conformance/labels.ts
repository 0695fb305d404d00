import { describe, expect } from 'vitest';
import type { StoredAddressLabel, StoredPrivateLabel } from '@chainlens/core';
import { fixtureAddress, makeChain } from '../fixtures.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

function label(name: string, text: string, changes: Partial<StoredAddressLabel> = {}): StoredAddressLabel {
  return { address: fixtureAddress(name), label: text, category: 'exchange', note: "Hot wallet; DROP TABLE labels; --'\nsecond line", updatedAt: '2026-11-22T12:00:00.000Z', ...changes };
}

function entry(userId: string, name: string, createdAt: string, changes: Partial<StoredPrivateLabel> = {}): StoredPrivateLabel {
  return { userId, address: fixtureAddress(name), label: `mine ${name}`, note: null, createdAt, updatedAt: createdAt, ...changes };
}

const ALICE = '00000000-0000-4000-8000-00000000000a';
const BOB = '00000000-0000-4000-8000-00000000000b';

/** Public labels (with their version and prefix search) and private watch-list labels. */
export function labelTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('address labels', () => {
    test('a label reads back equal, a put replaces it, a delete removes it; many are read at once', async (storage) => {
      const binance = label('a', 'Binance 14 — “hot” 🚀');
      await storage.putAddressLabel(binance);
      await storage.putAddressLabel(label('b', 'Bridge', { category: null, note: null }));
      expect(await storage.getAddressLabels([binance.address])).toEqual([binance]);
      const replaced = { ...binance, label: 'Binance', category: null };
      await storage.putAddressLabel(replaced);
      const found = await storage.getAddressLabels([fixtureAddress('b'), fixtureAddress('nobody'), binance.address, binance.address]);
      expect(found.sort((x, y) => (x.address < y.address ? -1 : 1))).toEqual([replaced, label('b', 'Bridge', { category: null, note: null })].sort((x, y) => (x.address < y.address ? -1 : 1)));
      expect(await storage.deleteAddressLabel(binance.address)).toBe(true);
      expect(await storage.deleteAddressLabel(binance.address)).toBe(false);
      expect(await storage.getAddressLabels([binance.address])).toEqual([]);
      expect(await storage.getAddressLabels([])).toEqual([]);
    });

    test('the version grows with every put and every delete that removed a label', async (storage) => {
      const start = await storage.getLabelsVersion();
      await storage.putAddressLabel(label('a', 'A'));
      const afterPut = await storage.getLabelsVersion();
      expect(afterPut).toBeGreaterThan(start);
      await storage.putAddressLabel(label('a', 'A again'));
      const afterReplace = await storage.getLabelsVersion();
      expect(afterReplace).toBeGreaterThan(afterPut);
      await storage.deleteAddressLabel(fixtureAddress('nobody'));
      expect(await storage.getLabelsVersion()).toBe(afterReplace);
      await storage.deleteAddressLabel(fixtureAddress('a'));
      expect(await storage.getLabelsVersion()).toBeGreaterThan(afterReplace);
    });

    test('search matches a prefix ignoring case, literally, by lowercased text then address, up to the limit', async (storage) => {
      const labels = [
        label('1', 'Uniswap V2: Router'),
        label('2', 'uniswap v3: Router'),
        label('3', 'UNISWAP V2: Factory'),
        label('4', 'Unicorn 100%_off'),
        label('5', 'Unicorn 100x'),
        label('6', 'Ünï'),
        label('7', 'Curve'),
        label('8', 'uniswap v3: Router'),
      ];
      for (const one of labels) await storage.putAddressLabel(one);
      const texts = async (prefix: string, limit = 10) => (await storage.searchAddressLabels(prefix, limit)).map((found) => found.label);
      expect(await texts('uniSWAP v')).toEqual(['UNISWAP V2: Factory', 'Uniswap V2: Router', 'uniswap v3: Router', 'uniswap v3: Router']);
      expect((await storage.searchAddressLabels('uniswap v3', 10)).map((found) => found.address)).toEqual([fixtureAddress('2'), fixtureAddress('8')].sort());
      expect(await texts('unicorn 100%')).toEqual(['Unicorn 100%_off']);
      expect(await texts('unicorn 100_')).toEqual([]);
      expect(await texts('ün')).toEqual(['Ünï']);
      expect(await texts('uni', 2)).toEqual(['Unicorn 100%_off', 'Unicorn 100x']);
      expect(await texts('nothing')).toEqual([]);
      expect(await texts('uni', 0)).toEqual([]);
      expect(await storage.searchAddressLabels('', 100)).toHaveLength(labels.length);
    });

    test('rollbackTo leaves labels alone', async (storage) => {
      const chain = makeChain({ blocks: 4 });
      await writeChain(storage, chain);
      await storage.putAddressLabel(label('a', 'A'));
      await storage.putPrivateLabel(entry(ALICE, 'a', '2026-11-01T00:00:00.000Z'));
      await storage.rollbackTo(0n);
      expect(await storage.getAddressLabels([fixtureAddress('a')])).toEqual([label('a', 'A')]);
      expect(await storage.listPrivateLabels(ALICE)).toEqual([entry(ALICE, 'a', '2026-11-01T00:00:00.000Z')]);
    });
  });

  describe('private labels', () => {
    test('each user lists their own, newest first; a put replaces the entry but keeps when it was made; a delete removes it', async (storage) => {
      await storage.putPrivateLabel(entry(ALICE, 'a', '2026-11-01T00:00:00.000Z'));
      await storage.putPrivateLabel(entry(ALICE, 'b', '2026-11-03T00:00:00.000Z'));
      await storage.putPrivateLabel(entry(ALICE, 'c', '2026-11-02T00:00:00.000Z'));
      await storage.putPrivateLabel(entry(BOB, 'a', '2026-11-05T00:00:00.000Z', { label: 'bob’s' }));
      expect((await storage.listPrivateLabels(ALICE)).map((e) => e.address)).toEqual([fixtureAddress('b'), fixtureAddress('c'), fixtureAddress('a')]);
      const replaced = entry(ALICE, 'a', '2026-11-09T00:00:00.000Z', { label: 'renamed', note: 'a note' });
      expect(await storage.putPrivateLabel(replaced)).toBe(true);
      expect((await storage.listPrivateLabels(ALICE)).at(-1)).toEqual({ ...replaced, createdAt: '2026-11-01T00:00:00.000Z' });
      expect(await storage.listPrivateLabels(BOB)).toEqual([entry(BOB, 'a', '2026-11-05T00:00:00.000Z', { label: 'bob’s' })]);
      expect(await storage.deletePrivateLabel(ALICE, fixtureAddress('a'))).toBe(true);
      expect(await storage.deletePrivateLabel(ALICE, fixtureAddress('a'))).toBe(false);
      expect(await storage.listPrivateLabels(ALICE)).toHaveLength(2);
      expect(await storage.listPrivateLabels('not-a-uuid')).toEqual([]);
    });

    test('the cap refuses a new entry past it, not a replacement, and concurrent puts do not pass it together', async (storage) => {
      const cap = { maxEntries: 3 };
      for (const name of ['a', 'b']) expect(await storage.putPrivateLabel(entry(ALICE, name, '2026-11-01T00:00:00.000Z'), cap)).toBe(true);
      const results = await Promise.all(['c', 'd', 'e', 'f'].map((name) => storage.putPrivateLabel(entry(ALICE, name, '2026-11-02T00:00:00.000Z'), cap)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await storage.listPrivateLabels(ALICE)).toHaveLength(3);
      expect(await storage.putPrivateLabel(entry(ALICE, 'a', '2026-11-03T00:00:00.000Z', { label: 'still fits' }), cap)).toBe(true);
      expect(await storage.putPrivateLabel(entry(BOB, 'a', '2026-11-03T00:00:00.000Z'), cap)).toBe(true);
    });
  });
}
