import { memoryStorage } from '@chainlens/storage-memory';
import { describe, expect, it } from 'vitest';
import type { Hex, Storage } from '../../storage/index.js';
import { fixtureAddress } from '@chainlens/testing';
import { LabelService } from './label-service.js';
import { LabelsVersion } from './labels-version.js';

const [a, b, c] = [fixtureAddress('a'), fixtureAddress('b'), fixtureAddress('c')];

/** A label service over memory storage counting label reads; `maxAgeMs` long, so only a change re-reads the version. */
function setup(cacheEntries = 100): { storage: Storage; labels: LabelService; version: LabelsVersion; reads: Hex[][] } {
  const storage = memoryStorage();
  const reads: Hex[][] = [];
  const read = storage.getAddressLabels.bind(storage);
  storage.getAddressLabels = (addresses) => {
    reads.push(addresses);
    return read(addresses);
  };
  const version = new LabelsVersion(storage, 60_000);
  return { storage, version, reads, labels: new LabelService(storage, version, { maxPrivatePerUser: 2, cacheEntries, now: () => Date.parse('2026-11-25T00:00:00Z') }) };
}

describe('LabelService.labelsOf', () => {
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
