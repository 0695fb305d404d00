import type { CounterHit } from '@chainlens/core';
import { integerArray } from './codec.js';
import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

/**
 * Most expired counters one call deletes: far more than a call usually adds (one row per new key),
 * so sweeping keeps up.
 */
const SWEEP_BATCH = 100;

/**
 * The one statement of `hitCounters`, in one round trip. Parameters, as {@link hitCountersValues}
 * builds them: $1–$3 the keys, amounts and expiries of the hits that add something, $4 the keys
 * only read (amount 0), $5 `now`. Resolves a `(key, value)` row per live counter among them.
 *
 * - `hit` upserts: a stored counter that expired by `now` starts again, as a new one would. The
 *   upsert locks each row, so concurrent hits on one key queue and all count.
 * - `read` takes no lock and writes nothing: reads are as frequent as hits (throttles check
 *   before they count), and an absent or expired counter simply has no row in the result.
 * - `swept` deletes a batch of expired counters, oldest first, so keys of past windows do not
 *   pile up. It skips the rows this statement hits (updating a row twice in one statement is
 *   undefined), and that `NOT IN` also makes `hit` run to completion before it locks anything.
 *   Together with SKIP LOCKED it never waits for a lock, so it cannot close a deadlock cycle.
 *   `= ANY(ARRAY(…))` rather than `IN (…)` deletes through the primary key: a semi join may
 *   read the whole table instead.
 */
export function hitCountersStatement(t: Tables): Statement {
  return {
    name: 'chainlens_hit_counters',
    text: `WITH hit AS (
        INSERT INTO ${t.counters} AS c (key, value, expires_at)
        SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
        ON CONFLICT (key) DO UPDATE SET
          value = CASE WHEN c.expires_at <= $5::bigint THEN excluded.value ELSE c.value + excluded.value END,
          expires_at = CASE WHEN c.expires_at <= $5::bigint THEN excluded.expires_at ELSE c.expires_at END
        RETURNING key, value
      ),
      read AS (
        SELECT key, value FROM ${t.counters} WHERE key = ANY($4::text[]) AND expires_at > $5::bigint
      ),
      swept AS (
        DELETE FROM ${t.counters} WHERE key = ANY(ARRAY(
          SELECT key FROM ${t.counters}
          WHERE expires_at <= $5::bigint AND key NOT IN (SELECT key FROM hit)
          ORDER BY expires_at
          LIMIT ${SWEEP_BATCH}
          FOR UPDATE SKIP LOCKED
        ))
      )
      SELECT key, value FROM hit
      UNION ALL
      SELECT key, value FROM read`,
  };
}

/**
 * The parameters of {@link hitCountersStatement}. Hits are sent sorted by key, so the upsert
 * locks rows in one order in every call: two concurrent calls sharing keys then queue instead
 * of deadlocking, whatever order their callers listed the keys in.
 */
export function hitCountersValues(hits: readonly CounterHit[], now: number): unknown[] {
  const adds = hits.filter((hit) => hit.amount > 0).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const reads = hits.filter((hit) => hit.amount === 0).map((hit) => hit.key);
  return [
    adds.map((hit) => hit.key),
    integerArray(adds.map((hit) => hit.amount)),
    integerArray(adds.map((hit) => hit.expiresAt)),
    reads,
    now,
  ];
}
