/**
 * ChainLens on Fastify over memory storage preloaded with a synthetic chain (no node is asked:
 * charts and exports read storage only), for the chart and CSV benchmarks. Announces a user's
 * JWT beside its URL (exports are for signed-in callers). Started with `--expose-gc`, it also
 * answers `GET /bench/live-memory` (heap and external bytes after a full collection).
 * Usage: `chainlens-insights.ts <blocks> <txPerBlock> <blockTimeSeconds> <heavyEvery> <exportRows> [--no-response-cache]`.
 */
import { chainlens } from '@chainlens/adapter-fastify';
import { createExplorer } from '@chainlens/core';
import { memoryStorage } from '@chainlens/storage-memory';
import { syntheticChain } from '../lib/synthetic-chain.js';
import { announce, listenFastify } from './listen.js';

const [blocks, txPerBlock, blockTime, heavyEvery, exportRows] = process.argv.slice(2, 7).map(Number);
if (![blocks, txPerBlock, blockTime, heavyEvery, exportRows].every((n) => Number.isInteger(n) && n! > 0)) {
  throw new Error('usage: chainlens-insights.ts <blocks> <txPerBlock> <blockTimeSeconds> <heavyEvery> <exportRows> [--no-response-cache]');
}
const cache = !process.argv.includes('--no-response-cache');
const storage = memoryStorage({ initialBlocks: syntheticChain({ blocks: blocks!, txPerBlock: txPerBlock!, addresses: 1_000, heavyEvery: heavyEvery!, logEvery: 4, blockTime: blockTime! }) });
// Nothing listens at this node: the explorer is never started, and these routes read storage only.
const explorer = await createExplorer({
  rpcUrl: 'http://127.0.0.1:9',
  storage,
  logLevel: 'silent',
  rateLimits: { enabled: false },
  exports: { maxRows: exportRows! },
  reads: { responseCacheBytes: cache ? 32 * 1024 * 1024 : 0 },
});
const collect = (globalThis as { gc?: () => void }).gc;
const url = await listenFastify(async (app) => {
  await app.register(chainlens, { explorer });
  // Run with --expose-gc: live memory after a full collection, what the CSV benchmark samples.
  if (collect) {
    app.get('/bench/live-memory', (_request, reply) => {
      collect();
      const { heapUsed, external } = process.memoryUsage();
      return reply.send({ bytes: heapUsed + external });
    });
  }
});
const password = 'benchmark passphrase, long enough';
const user = await explorer.users.register({ email: 'bench@example.com', password, name: 'Bench' }, '127.0.0.1');
const { access_token: token } = await explorer.users.login(user.email, password);
announce(url, { jwt: { authorization: `Bearer ${token}` } });
