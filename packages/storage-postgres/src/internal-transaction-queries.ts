import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

export const INTERNAL_TRANSACTION_COLUMNS = `block_number AS "blockNumber", transaction_index AS "transactionIndex", trace_index AS "traceIndex",
  trace_id AS "traceId", transaction_hash AS "transactionHash", timestamp, type, from_address AS "from", to_address AS "to",
  value, gas, gas_used AS "gasUsed", error`;

/**
 * The statements of internal transactions. Listings take $1/$2 the inclusive block range, $3 the
 * page size and $4 the rows to skip; by address, $5 the address.
 */
export function internalTransactionStatements(t: Tables) {
  const ofAddress = (order: 'ASC' | 'DESC'): Statement => {
    const side = (party: 'from_address' | 'to_address') => `(SELECT * FROM ${t.internalTransactions}
        WHERE ${party} = $5 AND block_number BETWEEN $1 AND $2
        ORDER BY block_number ${order}, transaction_index ${order}, trace_index ${order}
        LIMIT $3::bigint + $4::bigint)`;
    return {
      name: `chainlens_address_internal_transactions_${order.toLowerCase()}`,
      // Each side reads only the rows the page can need from its own index; UNION drops the
      // second copy of one from an address to itself (the rows are equal).
      text: `SELECT ${INTERNAL_TRANSACTION_COLUMNS} FROM (${side('from_address')} UNION ${side('to_address')}) internal
        ORDER BY block_number ${order}, transaction_index ${order}, trace_index ${order}
        LIMIT $3 OFFSET $4`,
    };
  };
  const inRange = (order: 'ASC' | 'DESC'): Statement => ({
    name: `chainlens_internal_transactions_${order.toLowerCase()}`,
    text: `SELECT ${INTERNAL_TRANSACTION_COLUMNS} FROM ${t.internalTransactions} WHERE block_number BETWEEN $1 AND $2
      ORDER BY block_number ${order}, transaction_index ${order}, trace_index ${order} LIMIT $3 OFFSET $4`,
  });
  return {
    blockInternalTransactions: {
      name: 'chainlens_block_internal_transactions',
      text: `SELECT ${INTERNAL_TRANSACTION_COLUMNS} FROM ${t.internalTransactions} WHERE block_number = $1 ORDER BY transaction_index, trace_index`,
    },
    addressInternalTransactions: { ASC: ofAddress('ASC'), DESC: ofAddress('DESC') },
    internalTransactions: { ASC: inRange('ASC'), DESC: inRange('DESC') },
  } satisfies Record<string, Statement | Record<'ASC' | 'DESC', Statement>>;
}

export type InternalTransactionStatements = ReturnType<typeof internalTransactionStatements>;
