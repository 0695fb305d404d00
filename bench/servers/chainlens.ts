/**
 * ChainLens behind one adapter, with memory storage holding the chain at `rpcUrl`. The indexer is
 * stopped once it reaches the head so the measurement sees request handling only.
 * Usage: `chainlens.ts <fastify|express> <rpcUrl>`.
 */
import { chainlensRouter } from '@chainlens/adapter-express';
import { chainlens } from '@chainlens/adapter-fastify';
import { createExplorer } from '@chainlens/core';
import { memoryStorage } from '@chainlens/storage-memory';
import { waitForCursor } from '../lib/wait-for-cursor.js';
import { announce, listenExpress, listenFastify, parseFramework } from './listen.js';

const [frameworkArg, rpcUrl] = process.argv.slice(2);
const framework = parseFramework(frameworkArg);
if (rpcUrl === undefined) throw new Error('usage: chainlens.ts <fastify|express> <rpcUrl>');

const explorer = await createExplorer({ rpcUrl, storage: memoryStorage(), logLevel: 'silent', indexer: { pollIntervalMs: 50 } });
await explorer.start();
await waitForCursor(explorer, BigInt(await explorer.chain.request<string>('eth_blockNumber')));
await explorer.indexer.stop();

const url =
  framework === 'fastify'
    ? await listenFastify((app) => app.register(chainlens, { explorer }))
    : await listenExpress((app) => app.use(chainlensRouter(explorer)));
announce(url);
