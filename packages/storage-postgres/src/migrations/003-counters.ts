import type { Migration } from './migration.js';

/**
 * The counters of rate limits and throttles. Not chain data: no rollback or block write touches
 * this table. Times are Unix milliseconds, as the Storage contract passes them.
 */
export const countersMigration: Migration = {
  version: 3,
  name: 'counters',
  sql: /* sql */ `
-- Nearly every request adds to a row here: free space on each page lets those be HOT updates,
-- which leave both indexes alone (an increment does not change expires_at).
CREATE TABLE counters (
  key        text PRIMARY KEY,
  value      bigint NOT NULL,
  expires_at bigint NOT NULL
) WITH (fillfactor = 70);
-- The sweep of hitCounters: the oldest expired rows, found without reading live ones.
CREATE INDEX counters_by_expiry ON counters (expires_at);
`,
};
