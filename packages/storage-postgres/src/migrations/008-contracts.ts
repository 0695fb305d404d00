import type { Migration } from './migration.js';

/**
 * Contract creations, written with their block and removed with it. A CREATE2 address can be
 * created again after a self-destruct, so an address may have several rows; the latest counts.
 * Blocks indexed before this migration have no rows here: such a schema is re-indexed to list
 * their creators.
 */
export const contractsMigration: Migration = {
  version: 8,
  name: 'contracts',
  sql: /* sql */ `
CREATE TABLE contract_creations (
  block_number      bigint NOT NULL,
  transaction_index integer NOT NULL,
  trace_index       integer NOT NULL,
  address           bytea NOT NULL,
  creator           bytea NOT NULL,
  transaction_hash  bytea NOT NULL,
  PRIMARY KEY (block_number, transaction_index, trace_index)
);
CREATE INDEX contract_creations_by_address ON contract_creations (address, block_number, transaction_index, trace_index);
`,
};
