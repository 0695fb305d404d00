/**
 * ChainLens as a Fastify plugin with its data in Postgres (tables are created and migrated on
 * start). Several instances may share the database: the coordinator lets one index while all
 * serve and hear its blocks.
 *
 *   DATABASE_URL=postgres://user@127.0.0.1:5432/explorer EXPLORER_RPC_URL=http://127.0.0.1:8545 \
 *     npm start -w examples/fastify-postgres
 */
import { chainlens, frameworkErrors } from '@chainlens/adapter-fastify';
import { createExplorer, handleClientError } from '@chainlens/core';
import { postgresCoordinator, postgresStorage } from '@chainlens/storage-postgres';
import Fastify from 'fastify';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('DATABASE_URL is required, e.g. DATABASE_URL=postgres://user@127.0.0.1:5432/explorer');
  process.exit(1);
}
// Its own schema lets ChainLens share a database with your tables (default `public`).
const postgres = { connectionString: databaseUrl, schema: process.env.EXPLORER_DB_SCHEMA ?? 'public' };

const explorer = await createExplorer({
  rpcUrl: process.env.EXPLORER_RPC_URL ?? 'http://127.0.0.1:8545',
  storage: postgresStorage(postgres),
  coordinator: postgresCoordinator(postgres),
  auth: { jwtSecret: process.env.EXPLORER_JWT_SECRET },
});

const app = Fastify({ clientErrorHandler: handleClientError, frameworkErrors });
await app.register(chainlens, { explorer });
app.addHook('onClose', () => explorer.close());
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
console.log(`Explorer at ${address} (docs: ${address}/docs)`);
await explorer.start();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
