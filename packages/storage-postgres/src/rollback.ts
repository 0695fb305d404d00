import type { PoolClient } from 'pg';
import { addressCounts, type AddressedTransaction, addressRows } from './addresses.js';
import { lockCursor } from './chain-state.js';
import { toDecimal } from './codec.js';
import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

/**
 * The statements of {@link rollbackTo}. $1 is the rollback point, $2 the cursor: ranges are
 * bounded on both sides (nothing lies above the cursor) so that even before statistics exist
 * the planner expects a narrow range and walks the block-number indexes.
 */
export function rollbackStatements(t: Tables) {
  return {
    removedTransactions: {
      name: 'chainlens_removed_transactions',
      text: `SELECT from_address AS "from", to_address AS "to", contract_address AS "contractAddress",
          block_number AS "blockNumber", transaction_index AS "transactionIndex"
        FROM ${t.transactions} WHERE block_number > $1 AND block_number <= $2`,
    },
    // address_transactions has no index on block_number (it would cost every write): its rows
    // are deleted by primary key, rebuilt from the removed transactions. Rows are joined from
    // `unnest` on the whole key (and stats on theirs), never matched with `= ANY(…)`: a join on
    // a unique key is estimated at one row per probe even without statistics (autovacuum may
    // be off), so the planner walks the index instead of scanning the table.
    deleteAbove: {
      name: 'chainlens_delete_above',
      text: `WITH logs AS (
          DELETE FROM ${t.logs} WHERE block_number > $1 AND block_number <= $2
        ), token_transfers AS (
          DELETE FROM ${t.tokenTransfers} WHERE block_number > $1 AND block_number <= $2
        ), transactions AS (
          DELETE FROM ${t.transactions} WHERE block_number > $1 AND block_number <= $2
        ), blocks AS (
          DELETE FROM ${t.blocks} WHERE number > $1 AND number <= $2
        ), entries AS (
          DELETE FROM ${t.addressTransactions} a
          USING unnest($3::bytea[], $4::int8[], $5::int4[]) AS r(address, block_number, transaction_index)
          WHERE a.address = r.address AND a.block_number = r.block_number AND a.transaction_index = r.transaction_index
        )
        UPDATE ${t.addressStats} s SET transaction_count = s.transaction_count - c.n
        FROM unnest($6::bytea[], $7::int8[]) AS c(address, n)
        WHERE s.address = c.address`,
    },
    // A separate statement: it must see the rows the one above deleted.
    settleChainState: {
      name: 'chainlens_settle_chain_state',
      text: `WITH dropped AS (
          DELETE FROM ${t.addressStats} s USING unnest($2::bytea[]) AS c(address)
          WHERE s.address = c.address AND s.transaction_count = 0
          RETURNING 1
        ), recomputed AS (
          UPDATE ${t.addressStats} s SET
            first_block = (SELECT min(block_number) FROM ${t.addressTransactions} a WHERE a.address = s.address),
            last_block = (SELECT max(block_number) FROM ${t.addressTransactions} a WHERE a.address = s.address)
          FROM unnest($2::bytea[]) AS c(address)
          WHERE s.address = c.address AND s.transaction_count > 0
        )
        UPDATE ${t.chainState} SET
          (cursor_number, cursor_hash) = (SELECT number, hash FROM ${t.blocks} WHERE number = $1),
          total_transactions = total_transactions - $3,
          total_contracts = total_contracts - $4,
          total_accounts = total_accounts - (SELECT count(*) FROM dropped)`,
    },
  } satisfies Record<string, Statement>;
}

/** The rollback statements of one schema, with the lock every writer starts with. */
export type RollbackStatements = ReturnType<typeof rollbackStatements> & { lockChainState: Statement };

/**
 * Removes every block above `blockNumber` in the caller's transaction, with its transactions,
 * logs, token transfers and address entries, and takes back totals and address stats exactly: stats of addresses
 * left without transactions are deleted, the others' first and last blocks recomputed from the
 * remaining entries. The cursor moves to block `blockNumber`, or is cleared when no such block
 * is stored (it was below the first). A no-op at or above the cursor.
 */
export async function rollbackTo(client: PoolClient, s: RollbackStatements, blockNumber: bigint): Promise<void> {
  const cursor = await lockCursor(client, s.lockChainState);
  if (!cursor || blockNumber >= cursor.number) return;
  const range = [toDecimal(blockNumber), toDecimal(cursor.number)];
  const { rows } = await client.query<AddressedTransaction>({ ...s.removedTransactions, values: range });
  const entries = addressRows(rows);
  const counts = addressCounts(rows);
  await client.query({
    ...s.deleteAbove,
    values: [...range, entries.addresses, entries.blockNumbers, entries.transactionIndexes, counts.addresses, counts.counts],
  });
  await client.query({
    ...s.settleChainState,
    values: [range[0], counts.addresses, rows.length, rows.filter((tx) => tx.contractAddress !== null).length],
  });
}
