/**
 * ChainLens behind one adapter, holding the chain at `rpcUrl` in memory or, given a database URL
 * and a schema, in Postgres, as `npm start` runs it: indexing on, at its default polling interval,
 * so the figures include what following an idle head costs. Rate limits are on, as `npm start` and
 * every embedding ship them, at an allowance no benchmark reaches, unless `limits` is `off`. Announces the headers of a
 * registered user's JWT and API key beside its URL.
 * Usage: `chainlens.ts <fastify|express> <rpcUrl> [on|off] [<databaseUrl> <schema>]`.
 */
import { chainlensRouter } from '@chainlens/adapter-express';
import { chainlens } from '@chainlens/adapter-fastify';
import { createExplorer } from '@chainlens/core';
import { memoryStorage } from '@chainlens/storage-memory';
import { postgresStorage } from '@chainlens/storage-postgres';
import { waitForCursor } from '../lib/wait-for-cursor.js';
import { announce, listenExpress, listenFastify, parseFramework } from './listen.js';

const [frameworkArg, rpcUrl, limits = 'on', databaseUrl, schema] = process.argv.slice(2);
const framework = parseFramework(frameworkArg);
if (rpcUrl === undefined || (limits !== 'on' && limits !== 'off') || (databaseUrl !== undefined && schema === undefined)) {
  throw new Error('usage: chainlens.ts <fastify|express> <rpcUrl> [on|off] [<databaseUrl> <schema>]');
}

// Every request is counted, against an allowance 100 connections from one address never reach.
const unreachable = { perMinute: 1_000_000_000, perDay: 1_000_000_000_000 };
const explorer = await createExplorer({
  rpcUrl,
  storage: databaseUrl === undefined ? memoryStorage() : postgresStorage({ connectionString: databaseUrl, schema: schema! }),
  logLevel: 'silent',
  rateLimits: limits === 'on' ? { anonymous: unreachable, authenticated: unreachable, premium: unreachable } : { enabled: false },
});
await explorer.start();
await waitForCursor(explorer, BigInt(await explorer.chain.request<string>('eth_blockNumber')));

const url =
  framework === 'fastify'
    ? await listenFastify((app) => app.register(chainlens, { explorer }))
    : await listenExpress((app) => app.use(chainlensRouter(explorer)));
// A user with a JWT and an API key, so the benchmark can measure what authentication costs.
const password = 'benchmark passphrase, long enough';
const user = await explorer.users.register({ email: 'bench@example.com', password, name: 'Bench' }, '127.0.0.1');
const { access_token: token } = await explorer.users.login(user.email, password);
const principal = await explorer.users.authenticateToken(token);
const { key } = await explorer.services.apiKeys.create(principal, { name: 'bench', scopes: ['read'] });
announce(url, { jwt: { authorization: `Bearer ${token}` }, apiKey: { 'x-api-key': key } });
