import type { Migration } from './migration.js';

/**
 * Each address's transactions numbered 1, 2, 3… in chain order (`seq`), so that a page is a
 * range of about a page's index entries instead of an OFFSET walk over every skipped one (a deep
 * page of a busy address walked thousands). Writes number a block's entries after the address's
 * count before it; rollback removes only the newest entries of each address, so the numbers stay
 * dense. Rows already stored are numbered here, and the counts new ones start from checked
 * against them.
 */
export const addressTransactionOrdinalsMigration: Migration = {
  version: 12,
  name: 'address-transaction-ordinals',
  sql: /* sql */ `
ALTER TABLE address_transactions ADD COLUMN seq bigint;
UPDATE address_transactions a SET seq = n.seq
FROM (
  SELECT address, block_number, transaction_index,
    row_number() OVER (PARTITION BY address ORDER BY block_number, transaction_index) AS seq
  FROM address_transactions
) n
WHERE a.address = n.address AND a.block_number = n.block_number AND a.transaction_index = n.transaction_index;
-- New entries are numbered from these counts, so they must count the entries exactly.
UPDATE address_stats s SET transaction_count = c.n
FROM (SELECT address, count(*) AS n FROM address_transactions GROUP BY address) c
WHERE s.address = c.address AND s.transaction_count <> c.n;
ALTER TABLE address_transactions ALTER COLUMN seq SET NOT NULL;
CREATE UNIQUE INDEX address_transactions_by_seq ON address_transactions (address, seq) INCLUDE (block_number, transaction_index);
`,
};
