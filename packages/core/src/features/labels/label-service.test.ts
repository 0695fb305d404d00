import { memoryStorage } from '@chainlens/storage-memory';
import { describe, expect, it } from 'vitest';
import type { Hex, Storage } from '../../storage/index.js';
import { fixtureAddress } from '@chainlens/testing';
import { LabelService } from './label-service.js';
import { LabelsVersion } from './labels-version.js';

const [a, b, c] = [fixtureAddress('a'), fixtureAddress('b'), fixtureAddress('c')];

/**
 * A label service over memory storage counting per-address label reads (`reads`) and reads of
 * every label (`wholeReads`); `maxAgeMs` long, so only a change re-reads the version. Labels are
 * kept per address alone unless `wholeSetMax` says otherwise.
 */
function setup(cacheEntries = 100, wholeSetMax = 0): { storage: Storage; labels: LabelService; version: LabelsVersion; reads: Hex[][]; wholeReads: number[] } {
  const storage = memoryStorage();
  const reads: Hex[][] = [];
  const read = storage.getAddressLabels.bind(storage);
  storage.getAddressLabels = (addresses) => {
    reads.push(addresses);
    return read(addresses);
  };
  const wholeReads: number[] = [];
  const search = storage.searchAddressLabels.bind(storage);
  storage.searchAddressLabels = (prefix, limit) => {
    if (prefix === '') wholeReads.push(limit);
    return search(prefix, limit);
  };
  const version = new LabelsVersion(storage, 60_000);
  return { storage, version, reads, wholeReads, labels: new LabelService(storage, version, { maxPrivatePerUser: 2, cacheEntries, wholeSetMax, now: () => Date.parse('2026-11-25T00:00:00Z') }) };
}

const stored = (address: Hex, label: string) => ({ address, label, category: null, note: null, updatedAt: '2026-11-25T00:00:00.000Z' });

describe('LabelService.labelsOf, every label kept', () => {
  it('reads every label once per labels version and answers any address from them, with no read per address', async () => {
    const { storage, labels, version, reads, wholeReads } = setup(100, 2);
    await labels.put(a, { label: 'Alpha' });
    expect(await labels.labelsOf([a, b, null, a])).toEqual(new Map([[a, 'Alpha']]));
    expect(await labels.labelsOf([c, b, a])).toEqual(new Map([[a, 'Alpha']]));
    expect(wholeReads).toEqual([3]);
    // Another instance's change, told: the whole set is read again, at most 2 labels still.
    await storage.putAddressLabel(stored(b, 'Beta'));
    version.changed();
    expect(await labels.labelsOf([a, b, c])).toEqual(new Map([[a, 'Alpha'], [b, 'Beta']]));
    expect(wholeReads).toEqual([3, 3]);
    expect(reads).toEqual([]);
  });

  it('past its bound, keeps labels per address until a change brings them back under it', async () => {
    const { labels, reads, wholeReads } = setup(100, 2);
    for (const [address, label] of [[a, 'Alpha'], [b, 'Beta'], [c, 'Gamma']] as const) await labels.put(address, { label });
    expect(await labels.labelsOf([a, c])).toEqual(new Map([[a, 'Alpha'], [c, 'Gamma']]));
    expect(await labels.labelsOf([a, b])).toEqual(new Map([[a, 'Alpha'], [b, 'Beta']]));
    expect(wholeReads).toEqual([3]);
    expect(reads).toEqual([[a, c], [b]]);
    await labels.delete(c);
    expect(await labels.labelsOf([a, b, c])).toEqual(new Map([[a, 'Alpha'], [b, 'Beta']]));
    expect(wholeReads).toEqual([3, 3]);
    expect(reads).toHaveLength(2);
  });

  it('reads every label again after a failed read', async () => {
    const { storage, labels, wholeReads } = setup(100, 2);
    await labels.put(a, { label: 'Alpha' });
    const search = storage.searchAddressLabels.bind(storage);
    storage.searchAddressLabels = () => Promise.reject(new Error('storage down'));
    await expect(labels.labelsOf([a])).rejects.toThrow('storage down');
    storage.searchAddressLabels = search;
    expect(await labels.labelsOf([a])).toEqual(new Map([[a, 'Alpha']]));
    expect(wholeReads).toEqual([3]);
  });

  it('keeps nothing whole without a cache', async () => {
    const { labels, reads, wholeReads } = setup(0, 2);
    await labels.labelsOf([a, c]);
    expect(wholeReads).toEqual([]);
    expect(reads).toHaveLength(1);
  });
});

describe('LabelService.labelsOf, labels kept per address', () => {
  it('reads the labels of many addresses at once, then answers them (and their absence) from memory', async () => {
    const { labels, reads } = setup();
    await labels.put(a, { label: 'Alpha' });
    expect(await labels.labelsOf([a, b, null, a])).toEqual(new Map([[a, 'Alpha']]));
    expect(await labels.labelsOf([b, a])).toEqual(new Map([[a, 'Alpha']]));
    expect(reads).toEqual([[a, b]]);
    expect(await labels.labelsOf([])).toEqual(new Map());
    expect(reads).toHaveLength(1);
  });

  it('reads again after a change, made here or told by another instance (the stored version moved)', async () => {
    const { storage, labels, version, reads } = setup();
    await labels.labelsOf([a, b]);
    await labels.put(a, { label: 'Alpha' });
    expect(await labels.labelsOf([a, b])).toEqual(new Map([[a, 'Alpha']]));
    // Another instance's change: storage alone knows until the bus tells this one.
    await storage.putAddressLabel({ address: b, label: 'Beta', category: null, note: null, updatedAt: '2026-11-25T00:00:00.000Z' });
    expect(await labels.labelsOf([a, b])).toEqual(new Map([[a, 'Alpha']]));
    version.changed();
    expect(await labels.labelsOf([a, b])).toEqual(new Map([[a, 'Alpha'], [b, 'Beta']]));
    await labels.delete(a);
    expect(await labels.labelsOf([a, b])).toEqual(new Map([[b, 'Beta']]));
    expect(reads).toHaveLength(4);
  });

  it('without a cache, reads every time', async () => {
    const { labels, reads } = setup(0);
    await labels.labelsOf([a, c]);
    await labels.labelsOf([a, c]);
    expect(reads).toHaveLength(2);
  });

  it('refuses a watch-list entry past the cap with WatchlistLimitError, not a change of one', async () => {
    const { labels } = setup();
    await labels.watch('u', a, { label: 'one' });
    await labels.watch('u', b, { label: 'two' });
    await expect(labels.watch('u', c, { label: 'three' })).rejects.toThrow('Error! Watch list limit reached');
    expect(await labels.watch('u', a, { label: 'renamed' })).toMatchObject({ address: a, label: 'renamed' });
  });
});
