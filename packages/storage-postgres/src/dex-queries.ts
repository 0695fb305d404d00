import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

const PAIR_COLUMNS = `address, factory, token0, token1, block_number AS "blockNumber", log_index AS "logIndex"`;
export const SYNC_COLUMNS = `pair, block_number AS "blockNumber", log_index AS "logIndex", timestamp, reserve0, reserve1`;
const SWAP_COLUMNS = `pair, block_number AS "blockNumber", log_index AS "logIndex", timestamp,
  amount0_in AS "amount0In", amount1_in AS "amount1In", amount0_out AS "amount0Out", amount1_out AS "amount1Out"`;

/**
 * Reserves are below 2^112, so two different ratios differ by more than 2^-224: scaled by
 * 10^70 their integer parts still differ, and the integer order is the exact order.
 */
const RATIO = 'div(reserve1 * 1e70, reserve0)';

/** The statements of pairs and their syncs and swaps; windows are (`$2`, `$3`] of block timestamps. */
export function dexStatements(t: Tables) {
  const extreme = (order: 'ASC' | 'DESC'): Statement => ({
    name: `chainlens_pair_sync_${order === 'DESC' ? 'highest' : 'lowest'}`,
    text: `SELECT ${SYNC_COLUMNS} FROM ${t.pairSyncs}
      WHERE pair = $1 AND timestamp > $2 AND timestamp <= $3 AND reserve0 > 0 AND reserve1 > 0
      ORDER BY ${RATIO} ${order}, block_number, log_index LIMIT 1`,
  });
  return {
    blockPairs: {
      name: 'chainlens_block_pairs',
      text: `SELECT ${PAIR_COLUMNS} FROM ${t.dexPairs} WHERE block_number = $1 ORDER BY log_index`,
    },
    blockPairSyncs: {
      name: 'chainlens_block_pair_syncs',
      text: `SELECT ${SYNC_COLUMNS} FROM ${t.pairSyncs} WHERE block_number = $1 ORDER BY log_index`,
    },
    blockPairSwaps: {
      name: 'chainlens_block_pair_swaps',
      text: `SELECT ${SWAP_COLUMNS} FROM ${t.pairSwaps} WHERE block_number = $1 ORDER BY log_index`,
    },
    // Two index scans, one per side; a pair of a token with itself is listed once.
    tokenPairs: {
      name: 'chainlens_token_pairs',
      text: `SELECT ${PAIR_COLUMNS} FROM (
          SELECT * FROM ${t.dexPairs} WHERE token0 = $1
          UNION ALL
          SELECT * FROM ${t.dexPairs} WHERE token1 = $1 AND token0 <> $1
        ) p ORDER BY block_number, log_index`,
    },
    pairSyncAt: {
      name: 'chainlens_pair_sync_at',
      text: `SELECT ${SYNC_COLUMNS} FROM ${t.pairSyncs} WHERE pair = $1 AND timestamp <= $2
        ORDER BY timestamp DESC, block_number DESC, log_index DESC LIMIT 1`,
    },
    pairSyncHighest: extreme('DESC'),
    pairSyncLowest: extreme('ASC'),
    pairSwapSums: {
      name: 'chainlens_pair_swap_sums',
      text: `SELECT coalesce(sum(amount0_in), 0) AS "amount0In", coalesce(sum(amount1_in), 0) AS "amount1In",
          coalesce(sum(amount0_out), 0) AS "amount0Out", coalesce(sum(amount1_out), 0) AS "amount1Out"
        FROM ${t.pairSwaps} WHERE pair = $1 AND timestamp > $2 AND timestamp <= $3`,
    },
  } satisfies Record<string, Statement>;
}

export type DexStatements = ReturnType<typeof dexStatements>;
