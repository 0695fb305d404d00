import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedServer } from './embedded-postgres.js';

// The type of what this provides (`chainlensPostgresBroker`), declared beside its reader, testDatabaseUrl().
import type {} from '@chainlens/testing';

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

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
