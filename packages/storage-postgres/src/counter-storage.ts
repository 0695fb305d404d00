import type { CounterHit, CounterStorage } from '@chainlens/core';
import { hitCountersValues } from './counter-queries.js';
import type { Statement } from './queries.js';
import type { RolePools } from './role-pools.js';

/** Rate-limit and throttle counters: one statement on the primary per call. */
export class PostgresCounterStorage implements CounterStorage {
  constructor(
    private readonly pools: RolePools,
    private readonly statement: Statement,
  ) {}

  async hitCounters(hits: CounterHit[], now: number): Promise<number[]> {
    if (hits.length === 0) return [];
    const { rows } = await this.pools.primary.query<{ key: string; value: bigint }>({
      ...this.statement,
      values: hitCountersValues(hits, now),
    });
    // Rows come in no particular order, and an absent or expired counter read has none.
    const values = new Map(rows.map((row) => [row.key, Number(row.value)]));
    return hits.map((hit) => values.get(hit.key) ?? 0);
  }
}
