import type { Statement } from './queries.js';
import { INTERNAL_TRANSACTION_COLUMNS } from './internal-transaction-queries.js';
import { LOG_COLUMNS, TOKEN_TRANSFER_COLUMNS, TRANSACTION_COLUMNS } from './queries.js';
import { SYNC_COLUMNS } from './dex-queries.js';
import type { Tables } from './tables.js';

const ROLLUP_COLUMNS = `bucket, blocks, transactions, gas_used AS "gasUsed", gas_price_sum AS "gasPriceSum", new_contracts AS "newContracts",
  token_transfers AS "tokenTransfers", new_addresses AS "newAddresses", active_addresses AS "activeAddresses"`;

const APPROVAL_COLUMNS = `block_number AS "blockNumber", log_index AS "logIndex", transaction_hash AS "transactionHash",
  transaction_index AS "transactionIndex", timestamp, token, owner, spender, kind, value`;

/**
 * The statements of chart rollups, price history, approvals and keyset export pages. Each reads
 * an index range: rollups by (resolution, bucket), approvals by owner, export pages from the
 * position after the last record read (a row comparison the index walks from).
 */
export function insightStatements(t: Tables) {
  /**
   * An address's keyset page of `table` in `key` order: its rows as sender or as recipient (each
   * side read from its own index, from the position on), merged; UNION drops the second copy of a
   * row from the address to itself. $1 address, ($2, $3, $4) the position, $5 the end block, $6
   * the limit.
   */
  const partiesAfter = (table: string, columns: string, key: string) => {
    const side = (party: string) => `(SELECT * FROM ${table}
        WHERE ${party} = $1 AND (${key}) > ($2, $3, $4) AND block_number <= $5
        ORDER BY ${key} LIMIT $6)`;
    return `SELECT ${columns} FROM (${side('from_address')} UNION ${side('to_address')}) page ORDER BY ${key} LIMIT $6`;
  };
  return {
    chartRollups: {
      name: 'chainlens_chart_rollups',
      text: `SELECT ${ROLLUP_COLUMNS} FROM ${t.chartRollups} WHERE resolution = $1 AND bucket BETWEEN $2 AND $3 ORDER BY bucket`,
    },
    // The range's rollups and the last one before it, marked apart, in one round trip.
    tokenRollups: {
      name: 'chainlens_token_rollups',
      text: `(SELECT false AS before, bucket, transfers, holders FROM ${t.tokenRollups}
          WHERE token = $1 AND resolution = $2 AND bucket BETWEEN $3 AND $4 ORDER BY bucket)
        UNION ALL
        (SELECT true, bucket, transfers, holders FROM ${t.tokenRollups}
          WHERE token = $1 AND resolution = $2 AND bucket < $3 ORDER BY bucket DESC LIMIT 1)`,
    },
    // One index probe per time (newest sync at or before it), in input order.
    pairSyncsAt: {
      name: 'chainlens_pair_syncs_at',
      text: `SELECT u.i, s.* FROM unnest($2::int8[]) WITH ORDINALITY AS u(at, i)
        LEFT JOIN LATERAL (
          SELECT ${SYNC_COLUMNS} FROM ${t.pairSyncs} WHERE pair = $1 AND timestamp <= u.at
          ORDER BY timestamp DESC, block_number DESC, log_index DESC LIMIT 1
        ) s ON true
        ORDER BY u.i`,
    },
    // The latest approval per (token, spender, kind) is the first of its group on the owner's index.
    approvals: {
      name: 'chainlens_approvals',
      text: `SELECT ${APPROVAL_COLUMNS} FROM (
          SELECT DISTINCT ON (token, spender, kind) * FROM ${t.tokenApprovals} WHERE owner = $1
          ORDER BY token, spender, kind, block_number DESC, log_index DESC
        ) latest
        WHERE value <> 0
        ORDER BY block_number DESC, log_index DESC LIMIT $2 OFFSET $3`,
    },
    blockApprovals: {
      name: 'chainlens_block_approvals',
      text: `SELECT ${APPROVAL_COLUMNS} FROM ${t.tokenApprovals} WHERE block_number = $1 ORDER BY log_index`,
    },
    // $1 address, ($2, $3) the position, $4 the end block, $5 the limit.
    transactionsAfter: {
      name: 'chainlens_address_transactions_after',
      text: `SELECT ${TRANSACTION_COLUMNS}
        FROM (
          SELECT block_number, transaction_index FROM ${t.addressTransactions}
          WHERE address = $1 AND (block_number, transaction_index) > ($2, $3) AND block_number <= $4
          ORDER BY block_number, transaction_index LIMIT $5
        ) page
        JOIN ${t.transactions} t USING (block_number, transaction_index)
        ORDER BY t.block_number, t.transaction_index`,
    },
    internalTransactionsAfter: {
      name: 'chainlens_address_internal_transactions_after',
      text: partiesAfter(t.internalTransactions, INTERNAL_TRANSACTION_COLUMNS, 'block_number, transaction_index, trace_index'),
    },
    tokenTransfersAfter: {
      name: 'chainlens_address_token_transfers_after',
      text: partiesAfter(t.tokenTransfers, TOKEN_TRANSFER_COLUMNS, 'block_number, log_index, batch_index'),
    },
    // $1 address, ($2, $3) the position, $4 the end block, $5 the limit.
    logsAfter: {
      name: 'chainlens_address_logs_after',
      text: `SELECT ${LOG_COLUMNS}
        FROM (
          SELECT * FROM ${t.logs}
          WHERE address = $1 AND (block_number, log_index) > ($2, $3) AND block_number <= $4
          ORDER BY block_number, log_index LIMIT $5
        ) l
        JOIN ${t.transactions} t ON t.block_number = l.block_number AND t.transaction_index = l.transaction_index
        ORDER BY l.block_number, l.log_index`,
    },
  } satisfies Record<string, Statement>;
}

export type InsightStatements = ReturnType<typeof insightStatements>;

/** The statements of public and private address labels. */
export function labelStatements(t: Tables) {
  const LABEL_COLUMNS = `address, label, category, note, updated_at AS "updatedAt"`;
  const PRIVATE_COLUMNS = `user_id::text AS "userId", address, label, note, created_at AS "createdAt", updated_at AS "updatedAt"`;
  const putPrivate = (capped: boolean): Statement => ({
    name: `chainlens_put_private_label${capped ? '_capped' : ''}`,
    // Capped: stored when it replaces the user's entry or the user holds fewer than $7.
    text: `INSERT INTO ${t.privateLabels} AS p (user_id, address, label, note, created_at, updated_at)
      SELECT $1, $2, $3, $4, $5, $6
      ${capped ? `WHERE EXISTS (SELECT 1 FROM ${t.privateLabels} WHERE user_id = $1 AND address = $2)
        OR (SELECT count(*) FROM ${t.privateLabels} WHERE user_id = $1) < $7` : ''}
      ON CONFLICT (user_id, address) DO UPDATE SET label = excluded.label, note = excluded.note, updated_at = excluded.updated_at
      RETURNING 1`,
  });
  return {
    putLabel: {
      name: 'chainlens_put_address_label',
      text: `WITH version AS (UPDATE ${t.labelState} SET version = version + 1)
        INSERT INTO ${t.addressLabels} (address, label, label_key, category, note, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (address) DO UPDATE SET label = excluded.label, label_key = excluded.label_key, category = excluded.category,
          note = excluded.note, updated_at = excluded.updated_at`,
    },
    deleteLabel: {
      name: 'chainlens_delete_address_label',
      text: `WITH deleted AS (DELETE FROM ${t.addressLabels} WHERE address = $1 RETURNING 1),
          version AS (UPDATE ${t.labelState} SET version = version + 1 WHERE EXISTS (SELECT 1 FROM deleted))
        SELECT count(*) AS deleted FROM deleted`,
    },
    labels: {
      name: 'chainlens_address_labels',
      text: `SELECT ${LABEL_COLUMNS} FROM ${t.addressLabels} WHERE address = ANY($1::bytea[])`,
    },
    // label_key is C-collated: a LIKE prefix is a range of address_labels_by_key, once the plan
    // knows the pattern. Sent unprepared (`text` only), so each search is planned with its own.
    searchLabels: {
      name: 'chainlens_search_address_labels',
      text: `SELECT ${LABEL_COLUMNS} FROM ${t.addressLabels} WHERE label_key LIKE $1 ESCAPE '\\' ORDER BY label_key, address LIMIT $2`,
    },
    labelsVersion: {
      name: 'chainlens_labels_version',
      text: `SELECT version FROM ${t.labelState}`,
    },
    putPrivate: putPrivate(false),
    putPrivateCapped: putPrivate(true),
    lockPrivateLabels: {
      name: 'chainlens_lock_private_labels',
      text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
    },
    deletePrivate: {
      name: 'chainlens_delete_private_label',
      text: `DELETE FROM ${t.privateLabels} WHERE user_id = $1 AND address = $2 RETURNING 1`,
    },
    listPrivate: {
      name: 'chainlens_private_labels',
      text: `SELECT ${PRIVATE_COLUMNS} FROM ${t.privateLabels} WHERE user_id = $1 ORDER BY created_at DESC, address`,
    },
  } satisfies Record<string, Statement>;
}

export type LabelStatements = ReturnType<typeof labelStatements>;

/** A LIKE pattern matching texts that start with `prefix` literally (`\`, `%` and `_` escaped). */
export function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, '\\$&')}%`;
}
