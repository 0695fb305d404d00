import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in one transaction on a client of `pool`: COMMIT when it resolves, ROLLBACK when
 * it throws (the error is rethrown). A client whose connection broke is destroyed, not
 * returned to the pool.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A checked-out client has no pool listener: without this, a connection lost mid-transaction
  // would be an unhandled 'error' event and crash the process. The failing query rejects too,
  // and that rejection is what reaches the caller.
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (!broken) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
    }
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
