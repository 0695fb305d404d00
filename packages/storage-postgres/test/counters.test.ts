import type { CounterHit, Storage } from '@chainlens/core';
import { describe, expect, it } from 'vitest';
import { createStorage, testSchemas, withClient } from './database.js';

const schemas = testSchemas();
const T0 = 1_700_000_000_000;

/** Runs `body` on a fresh, initialised storage and closes it whatever happens. */
async function withStorage(body: (storage: Storage, schema: string) => Promise<void>) {
  const schema = schemas.next();
  const storage = await createStorage(schema);
  try {
    await storage.init();
    await body(storage, schema);
  } finally {
    await storage.close();
  }
}

/** Every stored counter row as `key=value@expires_at`, by key; expired ones included. */
function storedRows(schema: string): Promise<string[]> {
  return withClient(async (client) => {
    const { rows } = await client.query<{ row: string }>(
      `SELECT key || '=' || value || '@' || expires_at AS row FROM ${schema}.counters ORDER BY key`,
    );
    return rows.map(({ row }) => row);
  });
}

function hits(prefix: string, count: number, expiresAt: number): CounterHit[] {
  return Array.from({ length: count }, (_, i) => ({ key: `${prefix}${String(i).padStart(3, '0')}`, amount: 1, expiresAt }));
}

describe('postgresStorage hitCounters', () => {
  it('sweeps expired counters a batch per call, never live ones or the ones it hits', async () => {
    await withStorage(async (storage, schema) => {
      await storage.hitCounters(hits('old:', 250, T0 + 10), T0);
      await storage.hitCounters(hits('live:', 3, T0 + 60_000), T0);
      const later = T0 + 1_000;
      // Hits an expired key, which starts again rather than being swept; 100 others go.
      expect(await storage.hitCounters([{ key: 'old:000', amount: 2, expiresAt: later + 60_000 }], later)).toEqual([2]);
      expect(await storedRows(schema)).toHaveLength(250 - 100 + 3);
      // A call that only reads sweeps too.
      expect(await storage.hitCounters([{ key: 'live:000', amount: 0, expiresAt: 0 }], later)).toEqual([1]);
      expect(await storedRows(schema)).toHaveLength(250 - 200 + 3);
      await storage.hitCounters([{ key: 'live:001', amount: 1, expiresAt: T0 + 60_000 }], later);
      expect(await storedRows(schema)).toEqual([
        `live:000=1@${T0 + 60_000}`,
        `live:001=2@${T0 + 60_000}`,
        `live:002=1@${T0 + 60_000}`,
        `old:000=2@${later + 60_000}`,
      ]);
    });
  });

  it('reads (amount 0) write nothing: no row for an absent counter, no new version of a live one', async () => {
    await withStorage(async (storage, schema) => {
      await storage.hitCounters([{ key: 'live', amount: 3, expiresAt: T0 + 60_000 }], T0);
      const version = () =>
        withClient(async (client) => (await client.query(`SELECT xmin::text, ctid::text FROM ${schema}.counters`)).rows);
      const before = await version();
      const read = [
        { key: 'live', amount: 0, expiresAt: T0 + 60_000 },
        { key: 'absent', amount: 0, expiresAt: T0 + 60_000 },
      ];
      expect(await storage.hitCounters(read, T0 + 1)).toEqual([3, 0]);
      expect(await version()).toEqual(before);
      expect(await storedRows(schema)).toEqual([`live=3@${T0 + 60_000}`]);
    });
  });
});
