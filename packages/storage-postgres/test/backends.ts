import { randomBytes } from 'node:crypto';
import { withClient } from './database.js';

/**
 * A connection string that names its sessions with a fresh `application_name`, so a test can
 * find (and terminate) exactly its own backends on the shared server.
 */
export function namedSessions(url: string, prefix: string): { url: string; name: string } {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const named = new URL(url);
  named.searchParams.set('application_name', name);
  return { url: named.toString(), name };
}

/** Terminates every backend of sessions named `name`; resolves how many there were. */
export async function terminateBackends(name: string): Promise<number> {
  return withClient(async (client) => {
    // In the select list, so it runs only for the rows the filter kept.
    const { rows } = await client.query<{ terminated: boolean }>(
      'SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1',
      [name],
    );
    return rows.filter((row) => row.terminated).length;
  });
}
