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
          DELETE FROM ${t.tokenTransfers} WHERE block_number > $1 AND block_number <= $2 RETURNING token, timestamp
        ), approvals AS (
          DELETE FROM ${t.tokenApprovals} WHERE block_number > $1 AND block_number <= $2
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
          RETURNING timestamp, effective_gas_price, contract_address
        ), blocks AS (
          DELETE FROM ${t.blocks} WHERE number > $1 AND number <= $2
          RETURNING timestamp, transaction_count, gas_used, new_address_count, hour_active_count, day_active_count
        ), removed AS (
          SELECT timestamp, 1 AS blocks, transaction_count AS transactions, gas_used, 0 AS prices, 0 AS contracts, 0 AS transfers,
            new_address_count AS new, hour_active_count AS hour, day_active_count AS day FROM blocks
          UNION ALL
          SELECT timestamp, 0, 0, 0, effective_gas_price, (contract_address IS NOT NULL)::int, 0, 0, 0, 0 FROM transactions
          UNION ALL
          SELECT timestamp, 0, 0, 0, 0, 0, 1, 0, 0, 0 FROM token_transfers
        ), chart AS (
          UPDATE ${t.chartRollups} r SET blocks = r.blocks - d.blocks, transactions = r.transactions - d.transactions,
            gas_used = r.gas_used - d.gas_used, gas_price_sum = r.gas_price_sum - d.prices,
            new_contracts = r.new_contracts - d.contracts, token_transfers = r.token_transfers - d.transfers,
            new_addresses = r.new_addresses - d.new, active_addresses = r.active_addresses - d.active
          FROM (
            SELECT v.resolution, x.timestamp - x.timestamp % v.width AS bucket, sum(x.blocks) AS blocks, sum(x.transactions) AS transactions,
              sum(x.gas_used) AS gas_used, sum(x.prices) AS prices, sum(x.contracts) AS contracts, sum(x.transfers) AS transfers,
              sum(x.new) AS new, sum(CASE WHEN v.resolution = 'hour' THEN x.hour ELSE x.day END) AS active
            FROM removed x CROSS JOIN (VALUES ('hour', 3600), ('day', 86400)) AS v(resolution, width)
            GROUP BY 1, 2
          ) d
          WHERE r.resolution = d.resolution AND r.bucket = d.bucket
        ), token_chart AS (
          UPDATE ${t.tokenRollups} r SET transfers = r.transfers - d.n
          FROM (
            SELECT x.token, v.resolution, x.timestamp - x.timestamp % v.width AS bucket, count(*) AS n
            FROM token_transfers x CROSS JOIN (VALUES ('hour', 3600), ('day', 86400)) AS v(resolution, width)
            GROUP BY 1, 2, 3
          ) d
          WHERE r.token = d.token AND r.resolution = d.resolution AND r.bucket = d.bucket
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
    // Rollups left without blocks (or a token's without transfers) go; a moved token's rollup of
    // the rollback point's hour and day ends with its holder count now, as its last remaining
    // transfer there left it (no later one remains).
    settleChainState: {
      name: 'chainlens_settle_chain_state',
      text: `WITH point AS (
          SELECT coalesce((SELECT timestamp FROM ${t.blocks} WHERE number = $1), 0) AS ts
        ), buckets AS (
          SELECT ts - ts % 3600 AS hour, ts - ts % 86400 AS day FROM point
        ), gone_chart AS (
          DELETE FROM ${t.chartRollups} r USING buckets b
          WHERE r.resolution IN ('hour', 'day') AND r.bucket >= b.day AND r.blocks = 0
        ), gone_token_chart AS (
          DELETE FROM ${t.tokenRollups} r USING unnest($7::bytea[]) AS u(token), buckets b
          WHERE r.token = u.token AND r.resolution IN ('hour', 'day') AND r.bucket >= b.day AND r.transfers = 0
        ), token_chart_holders AS (
          UPDATE ${t.tokenRollups} r SET holders = k.holder_count
          FROM unnest($7::bytea[]) AS u(token) JOIN ${t.tokens} k ON k.address = u.token, buckets b
          WHERE r.token = u.token AND r.transfers > 0
            AND ((r.resolution = 'hour' AND r.bucket = b.hour) OR (r.resolution = 'day' AND r.bucket = b.day))
        ), latest AS (
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
            last_block = (SELECT max(block_number) FROM ${t.addressTransactions} a WHERE a.address = s.address),
            last_timestamp = (SELECT b.timestamp FROM ${t.blocks} b
              WHERE b.number = (SELECT max(block_number) FROM ${t.addressTransactions} a WHERE a.address = s.address))
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
 * logs, token transfers, approvals, pair events, contract creations, internal transactions and
 * address entries, takes their balance changes back from holders and what they added back from
 * chart rollups, and takes back totals and address stats exactly: stats of addresses
 * left without transactions are deleted, the others' first and last blocks recomputed from the
 * remaining entries. The cursor moves to block `blockNumber`, or is cleared when no such block
 * is stored (it was below the first). A no-op at or above the cursor; resolves whether it removed anything.
 */
export async function rollbackTo(client: PoolClient, s: RollbackStatements, blockNumber: bigint): Promise<boolean> {
  const cursor = await lockCursor(client, s.lockChainState);
  if (!cursor || blockNumber >= cursor.number) return false;
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
  return true;
}
