import type { ClientBase } from 'pg';
import type { ResolvedPostgresStorageOptions } from './options.js';

/** What Node's own keepalive does after the initial delay (libuv): a probe a second, ten of them. */
const PROBE_INTERVAL_SECONDS = 1;
const PROBE_COUNT = 10;

/** pg client options under which this process notices a server that vanished. */
export function clientKeepAlive({ keepAliveInitialDelayMillis }: ResolvedPostgresStorageOptions): { keepAlive: true; keepAliveInitialDelayMillis: number } {
  return { keepAlive: true, keepAliveInitialDelayMillis };
}

/**
 * Gives the server's end of `client`'s session the same keepalive. It is the server that holds a
 * session's locks (the indexer lease, a half-written block's row lock): without this it keeps the
 * session of a vanished client for the OS default of over two hours. `tcp_user_timeout` bounds the
 * case where the server was still sending, in which keepalive probes never start.
 */
export async function setServerKeepAlive(client: ClientBase, { keepAliveInitialDelayMillis }: ResolvedPostgresStorageOptions): Promise<void> {
  const idle = Math.floor(keepAliveInitialDelayMillis / 1000);
  await client.query(
    `SET tcp_keepalives_idle = ${idle}; SET tcp_keepalives_interval = ${PROBE_INTERVAL_SECONDS}; ` +
      `SET tcp_keepalives_count = ${PROBE_COUNT}; SET tcp_user_timeout = ${(idle + PROBE_INTERVAL_SECONDS * PROBE_COUNT) * 1000}`,
  );
}
