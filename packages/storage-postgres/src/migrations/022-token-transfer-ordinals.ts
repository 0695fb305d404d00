import type { Migration } from './migration.js';

/**
 * Each token's transfers numbered 1, 2, 3… in chain order (`token_seq`), as migration 12 numbers
 * an address's transactions, so a page of a token's transfers is a range of about a page's index
 * entries instead of an OFFSET walk over every skipped one: a deep page costs what the first one
 * does. Writes number a block's transfers after the token's `transfer_count` before it; rollback
 * removes only each token's newest transfers (whole blocks above a point) and takes the count
 * back, so the numbers stay dense. Rows already stored are numbered here, and the counts new
 * ones start from checked against them.
 */
export const tokenTransferOrdinalsMigration: Migration = {
  version: 22,
  name: 'token-transfer-ordinals',
  sql: /* sql */ `
ALTER TABLE token_transfers ADD COLUMN token_seq bigint;
UPDATE token_transfers x SET token_seq = n.seq
FROM (
  SELECT block_number, log_index, batch_index,
    row_number() OVER (PARTITION BY token ORDER BY block_number, log_index, batch_index) AS seq
  FROM token_transfers
) n
WHERE x.block_number = n.block_number AND x.log_index = n.log_index AND x.batch_index = n.batch_index;
-- New transfers are numbered from these counts, so they must count the transfers exactly.
UPDATE tokens k SET transfer_count = c.n
FROM (SELECT token, count(*) AS n FROM token_transfers GROUP BY token) c
WHERE k.address = c.token AND k.transfer_count <> c.n;
ALTER TABLE token_transfers ALTER COLUMN token_seq SET NOT NULL;
CREATE UNIQUE INDEX token_transfers_by_token_seq ON token_transfers (token, token_seq);
`,
};
