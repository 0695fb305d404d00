import type { Migration } from './migration.js';

/**
 * The trace cursor: the block through which every stored block's traces (contracts created
 * inside transactions, internal transactions) are stored, now that they are read after their
 * block rather than with it. A schema indexed before kept them with each block, so it is traced
 * through its cursor where it holds any trace row. Without one its blocks are traced again from
 * the first: a node that traced would have left rows only where there were any, so nothing is
 * written twice.
 */
export const traceCursorMigration: Migration = {
  version: 14,
  name: 'trace-cursor',
  sql: /* sql */ `
ALTER TABLE chain_state ADD COLUMN traced_number bigint;
UPDATE chain_state SET traced_number = CASE
  WHEN EXISTS (SELECT 1 FROM internal_transactions) OR EXISTS (SELECT 1 FROM contract_creations WHERE trace_index > 0) THEN cursor_number
  ELSE (SELECT min(number) - 1 FROM blocks)
END;
`,
};
