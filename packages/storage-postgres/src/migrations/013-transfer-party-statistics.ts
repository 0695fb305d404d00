import type { Migration } from './migration.js';

/**
 * Sender and recipient are many distinct addresses, whatever ANALYZE's sample says. A token whose
 * transfers are mostly mints samples one sender (the zero address): the planner then takes
 * "sent by this holder" to match every row and walks the primary key backwards for the newest
 * one, through the whole table when the holder never sent it (a rollback re-reads that for each
 * holder it touches: 280 ms each on a million mints). Fixed at 5% of the rows distinct, such
 * lookups go through the party's own index; the most common values are still sampled. Analyzed
 * here so that a stored table plans with it at once.
 */
export const transferPartyStatisticsMigration: Migration = {
  version: 13,
  name: 'transfer-party-statistics',
  sql: /* sql */ `
ALTER TABLE token_transfers ALTER COLUMN from_address SET (n_distinct = -0.05), ALTER COLUMN to_address SET (n_distinct = -0.05);
ANALYZE token_transfers;
`,
};
