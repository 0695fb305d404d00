import type { Migration } from './migration.js';

/**
 * A block's transaction hashes, concatenated in index order, kept on its row: a block read is
 * then one primary-key lookup. Rows written before this migration have NULL here and are
 * answered from the transactions table.
 */
export const blockTransactionHashesMigration: Migration = {
  version: 9,
  name: 'block-transaction-hashes',
  sql: /* sql */ `
ALTER TABLE blocks ADD COLUMN transaction_hashes bytea;
`,
};
