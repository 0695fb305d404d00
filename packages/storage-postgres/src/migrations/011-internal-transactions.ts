import type { Migration } from './migration.js';

/**
 * Internal transactions of successful transactions, from the call traces read while indexing;
 * written with their block and removed with it. Listed by address through one index per side
 * (sender, recipient), merged in chain order; by block range through the primary key. Blocks
 * indexed before this migration have no rows here: such a schema is re-indexed to list them.
 */
export const internalTransactionsMigration: Migration = {
  version: 11,
  name: 'internal-transactions',
  sql: /* sql */ `
CREATE TABLE internal_transactions (
  block_number      bigint NOT NULL,
  transaction_index integer NOT NULL,
  trace_index       integer NOT NULL,
  trace_id          text NOT NULL,
  transaction_hash  bytea NOT NULL,
  timestamp         bigint NOT NULL,
  type              text NOT NULL,
  from_address      bytea NOT NULL,
  to_address        bytea,
  value             numeric(78,0) NOT NULL,
  gas               numeric(78,0) NOT NULL,
  gas_used          numeric(78,0) NOT NULL,
  error             text,
  PRIMARY KEY (block_number, transaction_index, trace_index)
);
CREATE INDEX internal_transactions_by_from ON internal_transactions (from_address, block_number, transaction_index, trace_index);
CREATE INDEX internal_transactions_by_to ON internal_transactions (to_address, block_number, transaction_index, trace_index);
`,
};
