import type { IndexerCursor } from '@chainlens/core';
import type { PoolClient } from 'pg';
import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

/**
 * Whether any webhook is active, read by the writers' lock statements: a write matches its
 * addresses against the webhooks only when one is (most deployments have none), at no extra
 * round trip. Read in the write's transaction, not cached, so a webhook any instance committed
 * before the write began is matched.
 */
export function webhooksActiveColumn(t: Tables): string {
  return `EXISTS (SELECT 1 FROM ${t.webhooks} WHERE active) AS "webhooksActive"`;
}

/** Locks the chain_state row for the rest of the transaction. */
export function lockChainStateStatement(t: Tables): Statement {
  return {
    name: 'chainlens_lock_chain_state',
    text: `SELECT cursor_number AS number, cursor_hash AS hash, ${webhooksActiveColumn(t)} FROM ${t.chainState} FOR UPDATE`,
  };
}

/** What a writer reads under the chain_state lock. */
export interface ChainStateLock {
  cursor: IndexerCursor | null;
  /** Whether any webhook is active (see {@link webhooksActiveColumn}). */
  webhooksActive: boolean;
}

/**
 * Locks chain_state and reads the cursor. Every writer (writeBlock, rollbackTo) starts with it,
 * so writers from any number of processes run one at a time and each sees the cursor the one
 * before it left.
 */
export async function lockChainState(client: PoolClient, statement: Statement): Promise<ChainStateLock> {
  const { rows } = await client.query<{ number: bigint | null; hash: IndexerCursor['hash'] | null; webhooksActive: boolean }>(statement);
  const row = rows[0];
  if (!row) throw new Error('postgresStorage: chain_state has no row; was the schema migrated by init()?');
  return { cursor: row.number === null || row.hash === null ? null : { number: row.number, hash: row.hash }, webhooksActive: row.webhooksActive };
}

/** {@link lockChainState}'s cursor. */
export async function lockCursor(client: PoolClient, statement: Statement): Promise<IndexerCursor | null> {
  return (await lockChainState(client, statement)).cursor;
}
