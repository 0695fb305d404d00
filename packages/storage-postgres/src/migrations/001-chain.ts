import type { Migration } from './migration.js';

/**
 * The chain tables. Hashes, addresses and hex data are `bytea`; uint256 quantities
 * `numeric(78,0)`; block numbers and timestamps `bigint`. There are no foreign keys: every row
 * of a block is written and removed in one transaction with the block, and an FK check per
 * inserted row would cost ingest for nothing.
 */
export const chainMigration: Migration = {
  version: 1,
  name: 'chain',
  sql: /* sql */ `
CREATE TABLE blocks (
  number            bigint PRIMARY KEY,
  hash              bytea NOT NULL UNIQUE,
  parent_hash       bytea NOT NULL,
  timestamp         bigint NOT NULL,
  miner             bytea NOT NULL,
  gas_used          numeric(78,0) NOT NULL,
  gas_limit         numeric(78,0) NOT NULL,
  base_fee_per_gas  numeric(78,0),
  difficulty        numeric(78,0) NOT NULL,
  size              bigint NOT NULL,
  state_root        bytea NOT NULL,
  transactions_root bytea NOT NULL,
  receipts_root     bytea NOT NULL,
  extra_data        bytea NOT NULL,
  transaction_count integer NOT NULL
);

CREATE TABLE transactions (
  hash                     bytea PRIMARY KEY,
  block_number             bigint NOT NULL,
  block_hash               bytea NOT NULL,
  transaction_index        integer NOT NULL,
  timestamp                bigint NOT NULL,
  from_address             bytea NOT NULL,
  to_address               bytea,
  value                    numeric(78,0) NOT NULL,
  gas                      numeric(78,0) NOT NULL,
  gas_price                numeric(78,0) NOT NULL,
  max_fee_per_gas          numeric(78,0),
  max_priority_fee_per_gas numeric(78,0),
  nonce                    numeric(78,0) NOT NULL,
  input                    bytea NOT NULL,
  type                     smallint NOT NULL,
  status                   smallint NOT NULL,
  gas_used                 numeric(78,0) NOT NULL,
  cumulative_gas_used      numeric(78,0) NOT NULL,
  effective_gas_price      numeric(78,0) NOT NULL,
  contract_address         bytea,
  logs_bloom               bytea NOT NULL,
  -- a block's transactions in order; joins from address_transactions and logs; rollback
  UNIQUE (block_number, transaction_index)
);

-- A log's transaction hash and block hash come from its transaction (joined on block number
-- and transaction index), so they are not stored twice. Topics are columns, not an array, so
-- topic filters can be indexed later.
CREATE TABLE logs (
  block_number      bigint NOT NULL,
  log_index         integer NOT NULL,
  transaction_index integer NOT NULL,
  address           bytea NOT NULL,
  topic0            bytea,
  topic1            bytea,
  topic2            bytea,
  topic3            bytea,
  data              bytea NOT NULL,
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX logs_by_address ON logs (address, block_number, log_index);

-- One row per (address, transaction) for senders, recipients and created contracts.
CREATE TABLE address_transactions (
  address           bytea NOT NULL,
  block_number      bigint NOT NULL,
  transaction_index integer NOT NULL,
  PRIMARY KEY (address, block_number, transaction_index)
);

-- Kept by writes and rollbacks so activity reads never count rows. Every block updates the
-- rows of its addresses: free space on each page lets those be HOT updates, which leave the
-- primary key index alone.
CREATE TABLE address_stats (
  address           bytea PRIMARY KEY,
  transaction_count bigint NOT NULL,
  first_block       bigint NOT NULL,
  last_block        bigint NOT NULL
) WITH (fillfactor = 70);

-- The single row every writer locks first: the cursor and the running totals.
CREATE TABLE chain_state (
  singleton          boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  cursor_number      bigint,
  cursor_hash        bytea,
  total_transactions bigint NOT NULL DEFAULT 0,
  total_contracts    bigint NOT NULL DEFAULT 0,
  total_accounts     bigint NOT NULL DEFAULT 0
);
INSERT INTO chain_state DEFAULT VALUES;
`,
};
