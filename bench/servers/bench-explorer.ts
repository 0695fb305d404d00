import { createExplorer, type Explorer } from '@chainlens/core';
import { memoryStorage } from '@chainlens/storage-memory';
import { postgresStorage } from '@chainlens/storage-postgres';
import { waitForCursor } from '../lib/wait-for-cursor.js';

/**
 * The explorer the HTTP benchmark serves, as `npm start` runs it: the chain at `rpcUrl` in memory
 * or, given a database URL and a schema, in Postgres, indexing on at its default polling
 * interval, so the figures include what following an idle head costs. Rate limits are on, as
 * `npm start` and every embedding ship them, at an allowance no benchmark reaches, unless `limits`
 * is `off`. Resolves once the node's head is indexed.
 */
export async function startBenchExplorer(rpcUrl: string, limits: 'on' | 'off' = 'on', database?: { url: string; schema: string }): Promise<Explorer> {
  // Every request is counted, against an allowance 100 connections from one address never reach.
  const unreachable = { perMinute: 1_000_000_000, perDay: 1_000_000_000_000 };
  const explorer = await createExplorer({
    rpcUrl,
    storage: database === undefined ? memoryStorage() : postgresStorage({ connectionString: database.url, schema: database.schema }),
    logLevel: 'silent',
    rateLimits: limits === 'on' ? { anonymous: unreachable, authenticated: unreachable, premium: unreachable } : { enabled: false },
  });
  await explorer.start();
  await waitForCursor(explorer, BigInt(await explorer.chain.request<string>('eth_blockNumber')));
  return explorer;
}
