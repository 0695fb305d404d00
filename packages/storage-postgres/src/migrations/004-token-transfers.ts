import type { Migration } from './migration.js';

/**
 * Token transfers, written with their block and removed with it, and the tokens and holder
 * balances kept from them. The transaction hash and the block timestamp are kept on a transfer
 * row (unlike logs): transfer lists answer both for every row, and a join per row would cost
 * those reads more than the bytes cost the table. Blocks indexed before this migration have no
 * rows here: such a schema is re-indexed to list their transfers.
 */
export const tokenTransfersMigration: Migration = {
  version: 4,
  name: 'tokens',
  sql: /* sql */ `
CREATE TABLE token_transfers (
  block_number      bigint NOT NULL,
  log_index         integer NOT NULL,
  batch_index       integer NOT NULL,
  transaction_hash  bytea NOT NULL,
  transaction_index integer NOT NULL,
  timestamp         bigint NOT NULL,
  token             bytea NOT NULL,
  standard          text NOT NULL,
  operator          bytea,
  from_address      bytea NOT NULL,
  to_address        bytea NOT NULL,
  value             numeric(78,0) NOT NULL,
  token_id          numeric(78,0),
  PRIMARY KEY (block_number, log_index, batch_index)
);
-- a token's transfers, and an address's as sender or as recipient, in chain order
CREATE INDEX token_transfers_by_token ON token_transfers (token, block_number, log_index, batch_index);
CREATE INDEX token_transfers_by_from ON token_transfers (from_address, block_number, log_index, batch_index);
CREATE INDEX token_transfers_by_to ON token_transfers (to_address, block_number, log_index, batch_index);

-- One row per token, moved by every block with its transfers (free space for HOT updates).
-- name, symbol and decimals are read from the contract after the token appears (metadata_read).
CREATE TABLE tokens (
  address        bytea PRIMARY KEY,
  standard       text NOT NULL,
  first_block    bigint NOT NULL,
  transfer_count bigint NOT NULL,
  holder_count   bigint NOT NULL,
  metadata_read  boolean NOT NULL DEFAULT false,
  name           text,
  symbol         text,
  decimals       smallint
) WITH (fillfactor = 70);
-- the token list, most held first
CREATE INDEX tokens_by_holders ON tokens (holder_count DESC, transfer_count DESC, address);
-- the tokens still to read metadata of
CREATE INDEX tokens_without_metadata ON tokens (first_block, address) WHERE NOT metadata_read;

-- Balances are plain numeric: a broken or hostile token can push a sum past any uint256, and an
-- overflow must never stop ingestion.
CREATE TABLE token_holders (
  token         bytea NOT NULL,
  holder        bytea NOT NULL,
  balance       numeric NOT NULL,
  first_seen    bigint NOT NULL,
  last_block    bigint NOT NULL,
  last_activity bigint NOT NULL,
  PRIMARY KEY (token, holder)
);
-- a token's holders page, largest first
CREATE INDEX token_holders_by_balance ON token_holders (token, balance DESC, holder) WHERE balance > 0;
`,
};
