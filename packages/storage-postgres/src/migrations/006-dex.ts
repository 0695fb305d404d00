import type { Migration } from './migration.js';

/**
 * Uniswap-V2-style pairs and their Sync and Swap events, written with their block and removed
 * with it. Keyed by their log, so rollbacks delete by block range; read by pair over a time
 * window (block timestamps never decrease, so timestamp order is chain order). Blocks indexed
 * before this migration have no rows here: such a schema is re-indexed to price their tokens.
 */
export const dexMigration: Migration = {
  version: 6,
  name: 'dex',
  sql: /* sql */ `
CREATE TABLE dex_pairs (
  block_number bigint NOT NULL,
  log_index    integer NOT NULL,
  address      bytea NOT NULL,
  factory      bytea NOT NULL,
  token0       bytea NOT NULL,
  token1       bytea NOT NULL,
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX dex_pairs_by_token0 ON dex_pairs (token0, block_number, log_index);
CREATE INDEX dex_pairs_by_token1 ON dex_pairs (token1, block_number, log_index);

CREATE TABLE pair_syncs (
  block_number bigint NOT NULL,
  log_index    integer NOT NULL,
  pair         bytea NOT NULL,
  timestamp    bigint NOT NULL,
  reserve0     numeric(78,0) NOT NULL,
  reserve1     numeric(78,0) NOT NULL,
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX pair_syncs_by_pair ON pair_syncs (pair, timestamp, block_number, log_index);

CREATE TABLE pair_swaps (
  block_number bigint NOT NULL,
  log_index    integer NOT NULL,
  pair         bytea NOT NULL,
  timestamp    bigint NOT NULL,
  amount0_in   numeric(78,0) NOT NULL,
  amount1_in   numeric(78,0) NOT NULL,
  amount0_out  numeric(78,0) NOT NULL,
  amount1_out  numeric(78,0) NOT NULL,
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX pair_swaps_by_pair ON pair_swaps (pair, timestamp, block_number, log_index);
`,
};
