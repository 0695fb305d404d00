import type { IndexerCursor } from '@chainlens/core';
import type { PoolClient } from 'pg';
import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

/** Locks the chain_state row for the rest of the transaction. */
export function lockChainStateStatement(t: Tables): Statement {
  return {
    name: 'chainlens_lock_chain_state',
    text: `SELECT cursor_number AS number, cursor_hash AS hash FROM ${t.chainState} FOR UPDATE`,
  };
}

/**
 * Locks chain_state and reads the cursor. Every writer (writeBlock, rollbackTo) starts with it,
 * so writers from any number of processes run one at a time and each sees the cursor the one
 * before it left.
 */
export async function lockCursor(client: PoolClient, statement: Statement): Promise<IndexerCursor | null> {
  const { rows } = await client.query<{ number: bigint | null; hash: IndexerCursor['hash'] | null }>(statement);
  const row = rows[0];
  if (!row) throw new Error('postgresStorage: chain_state has no row; was the schema migrated by init()?');
  return row.number === null || row.hash === null ? null : { number: row.number, hash: row.hash };
}
