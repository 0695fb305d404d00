/**
 * ChainLens behind the Fastify adapter, serving a Postgres schema that is already loaded; it does
 * not index, but as an instance of a cluster it hears the blocks another process writes and
 * announces on the schema's bus (the benchmarks' head mover), as it would an indexing instance's. Usage: `chainlens-postgres.ts [--no-cache] <connectionString> <schema> [rpcUrl]`
 * (`--no-cache`: neither the response cache nor the record cache nor kept list rows, so every
 * request reads storage, as a first request for cold data does).
 */
import { chainlens } from '@chainlens/adapter-fastify';
import { createExplorer } from '@chainlens/core';
import { postgresCoordinator, postgresStorage } from '@chainlens/storage-postgres';
import { announce, listenFastify } from './listen.js';

const args = process.argv.slice(2);
const uncached = args[0] === '--no-cache';
const [connectionString, schema, rpcUrl] = uncached ? args.slice(1) : args;
if (connectionString === undefined || schema === undefined) throw new Error('usage: chainlens-postgres.ts <connectionString> <schema> [rpcUrl]');

const unreachable = { perMinute: 1_000_000_000, perDay: 1_000_000_000_000 };
// Without an rpcUrl no node is reachable: a measured route that called one would answer 503 and
// fail the run (every non-2xx answer does).
const explorer = await createExplorer({
  rpcUrl: rpcUrl ?? 'http://127.0.0.1:9',
  storage: postgresStorage({ connectionString, schema }),
  coordinator: postgresCoordinator({ connectionString, schema }),
  logLevel: 'silent',
  indexer: { enabled: false },
  // Rate limits on, as shipped: every request is counted, against an allowance 50 connections
  // from one address never reach.
  rateLimits: { anonymous: unreachable, authenticated: unreachable, premium: unreachable },
  ...(uncached && { reads: { responseCacheBytes: 0, recordCacheBytes: 0, listRowCacheBytes: 0 } }),
});
// Started as a serving instance is: it joins the cluster (the indexer stays off).
await explorer.start();
announce(await listenFastify((app) => app.register(chainlens, { explorer })));
