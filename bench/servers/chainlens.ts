/**
 * ChainLens behind one adapter, serving the explorer of `bench-explorer.ts` (the chain at `rpcUrl`
 * in memory or, given a database URL and a schema, in Postgres; indexing on; rate limits on unless
 * `limits` is `off`). Announces the headers of a registered user's JWT and API key beside its URL.
 * Usage: `chainlens.ts <fastify|express> <rpcUrl> [on|off] [<databaseUrl> <schema>]`.
 */
import { chainlensRouter } from '@chainlens/adapter-express';
import { chainlens } from '@chainlens/adapter-fastify';
import { startBenchExplorer } from './bench-explorer.js';
import { announce, listenExpress, listenFastify, parseFramework } from './listen.js';

const [frameworkArg, rpcUrl, limits = 'on', databaseUrl, schema] = process.argv.slice(2);
const framework = parseFramework(frameworkArg);
if (rpcUrl === undefined || (limits !== 'on' && limits !== 'off') || (databaseUrl !== undefined && schema === undefined)) {
  throw new Error('usage: chainlens.ts <fastify|express> <rpcUrl> [on|off] [<databaseUrl> <schema>]');
}

const explorer = await startBenchExplorer(rpcUrl, limits, databaseUrl === undefined ? undefined : { url: databaseUrl, schema: schema! });

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
