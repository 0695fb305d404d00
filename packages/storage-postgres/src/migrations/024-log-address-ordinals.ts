import type { Migration } from './migration.js';

/**
 * Each contract's logs numbered 1, 2, 3… in chain order (`address_seq`), as migration 22 numbers
 * a token's transfers, so a page of a contract's events (and `getLogs` by address) is a range of
 * about a page's index entries instead of an OFFSET walk over every skipped one. Writes number a
 * block's logs after the contract's highest ordinal before the block, read on the new index;
 * rollback removes only whole blocks above a point, so each contract's newest logs, and the
 * numbers stay dense with nothing else to take back. Rows already stored are numbered here.
 * Idempotent, as a schema whose record of later migrations was lost runs them again.
 */
export const logAddressOrdinalsMigration: Migration = {
  version: 24,
  name: 'log-address-ordinals',
  sql: /* sql */ `
ALTER TABLE logs ADD COLUMN IF NOT EXISTS address_seq bigint;
UPDATE logs x SET address_seq = n.seq
FROM (
  SELECT block_number, log_index, row_number() OVER (PARTITION BY address ORDER BY block_number, log_index) AS seq
  FROM logs
) n
WHERE x.block_number = n.block_number AND x.log_index = n.log_index AND x.address_seq IS DISTINCT FROM n.seq;
ALTER TABLE logs ALTER COLUMN address_seq SET NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS logs_by_address_seq ON logs (address, address_seq);
`,
};
