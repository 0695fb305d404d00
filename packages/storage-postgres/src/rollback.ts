import type { PoolClient } from 'pg';
import { addressCounts, type AddressedTransaction, addressRows } from './addresses.js';
import { lockCursor } from './chain-state.js';
import { toDecimal } from './codec.js';
import { type BalanceMove, holderChanges, tokenCounts } from './token-holders.js';
import { holderCountChanges } from './write-block.js';
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
    removedTokenTransfers: {
      name: 'chainlens_removed_token_transfers',
      text: `SELECT token, standard, from_address AS "from", to_address AS "to", value
        FROM ${t.tokenTransfers} WHERE block_number > $1 AND block_number <= $2`,
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
        ), pairs AS (
          DELETE FROM ${t.dexPairs} WHERE block_number > $1 AND block_number <= $2
        ), pair_syncs AS (
          DELETE FROM ${t.pairSyncs} WHERE block_number > $1 AND block_number <= $2
        ), pair_swaps AS (
          DELETE FROM ${t.pairSwaps} WHERE block_number > $1 AND block_number <= $2
        ), contracts AS (
          DELETE FROM ${t.contractCreations} WHERE block_number > $1 AND block_number <= $2
        ), internal_transactions AS (
          DELETE FROM ${t.internalTransactions} WHERE block_number > $1 AND block_number <= $2
        ), transactions AS (
          DELETE FROM ${t.transactions} WHERE block_number > $1 AND block_number <= $2
        ), blocks AS (
          DELETE FROM ${t.blocks} WHERE number > $1 AND number <= $2
        ), holders AS (
          UPDATE ${t.tokenHolders} h SET balance = h.balance + u.delta
          FROM unnest($8::bytea[], $9::bytea[], $10::numeric[]) AS u(token, holder, delta)
          WHERE h.token = u.token AND h.holder = u.holder
          RETURNING h.token, h.holder, h.balance
        ), holder_changes AS (${holderCountChanges('holders', '$8', '$9', '$10')}
        ), tokens AS (
          UPDATE ${t.tokens} k SET transfer_count = k.transfer_count - u.transfers,
            holder_count = k.holder_count + coalesce(c.change, 0)
          FROM unnest($11::bytea[], $12::int8[]) AS u(token, transfers)
          LEFT JOIN holder_changes c ON c.token = u.token
          WHERE k.address = u.token
        ), entries AS (
          DELETE FROM ${t.addressTransactions} a
          USING unnest($3::bytea[], $4::int8[], $5::int4[]) AS r(address, block_number, transaction_index)
          WHERE a.address = r.address AND a.block_number = r.block_number AND a.transaction_index = r.transaction_index
        )
        UPDATE ${t.addressStats} s SET transaction_count = s.transaction_count - c.n
        FROM unnest($6::bytea[], $7::int8[]) AS c(address, n)
        WHERE s.address = c.address`,
    },
    // A separate statement: it must see the rows the one above deleted. A holder's latest
    // activity is re-read from its remaining transfers, newest as sender or as recipient; a
    // holder with none left (and so a zero balance) goes, as does a token without transfers.
    settleChainState: {
      name: 'chainlens_settle_chain_state',
      text: `WITH latest AS (
          SELECT p.token, p.holder, l.block_number, l.timestamp
          FROM unnest($5::bytea[], $6::bytea[]) AS p(token, holder)
          LEFT JOIN LATERAL (
            SELECT * FROM (
              (SELECT block_number, log_index, timestamp FROM ${t.tokenTransfers} x
                WHERE x.from_address = p.holder AND x.token = p.token ORDER BY block_number DESC, log_index DESC LIMIT 1)
              UNION ALL
              (SELECT block_number, log_index, timestamp FROM ${t.tokenTransfers} x
                WHERE x.to_address = p.holder AND x.token = p.token ORDER BY block_number DESC, log_index DESC LIMIT 1)
            ) latest ORDER BY block_number DESC, log_index DESC LIMIT 1
          ) l ON true
        ), gone_holders AS (
          DELETE FROM ${t.tokenHolders} h USING latest l
          WHERE h.token = l.token AND h.holder = l.holder AND l.block_number IS NULL
        ), kept_holders AS (
          UPDATE ${t.tokenHolders} h SET last_block = l.block_number, last_activity = l.timestamp FROM latest l
          WHERE h.token = l.token AND h.holder = l.holder AND l.block_number IS NOT NULL
        ), gone_tokens AS (
          DELETE FROM ${t.tokens} k USING unnest($7::bytea[]) AS u(token)
          WHERE k.address = u.token AND k.transfer_count = 0
        ), dropped AS (
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
          traced_number = CASE WHEN EXISTS (SELECT 1 FROM ${t.blocks} WHERE number = $1) THEN least(traced_number, $1) END,
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
 * logs, token transfers, pair events, contract creations, internal transactions and address entries, takes their balance changes back from holders, and takes back totals and address stats exactly: stats of addresses
 * left without transactions are deleted, the others' first and last blocks recomputed from the
 * remaining entries. The cursor moves to block `blockNumber`, or is cleared when no such block
 * is stored (it was below the first). A no-op at or above the cursor.
 */
export async function rollbackTo(client: PoolClient, s: RollbackStatements, blockNumber: bigint): Promise<void> {
  const cursor = await lockCursor(client, s.lockChainState);
  if (!cursor || blockNumber >= cursor.number) return;
  const range = [toDecimal(blockNumber), toDecimal(cursor.number)];
  const { rows } = await client.query<AddressedTransaction>({ ...s.removedTransactions, values: range });
  const { rows: transfers } = await client.query<BalanceMove>({ ...s.removedTokenTransfers, values: range });
  const entries = addressRows(rows);
  const counts = addressCounts(rows);
  const balances = holderChanges(transfers, true);
  const perToken = tokenCounts(transfers);
  await client.query({
    ...s.deleteAbove,
    values: [
      ...range, entries.addresses, entries.blockNumbers, entries.transactionIndexes, counts.addresses, counts.counts,
      balances.tokens, balances.holders, balances.deltas, perToken.tokens, perToken.counts,
    ],
  });
  await client.query({
    ...s.settleChainState,
    values: [
      range[0], counts.addresses, rows.length, rows.filter((tx) => tx.contractAddress !== null).length,
      balances.tokens, balances.holders, perToken.tokens,
    ],
  });
}
