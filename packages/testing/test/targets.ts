import type { Storage } from '@chainlens/core';
import { memoryStorage } from '@chainlens/storage-memory';
import { WebSocket } from 'ws';
import { createStorage, testSchemas } from '../../storage-postgres/test/database.js';
import type { StorageFactory } from '../src/index.js';
import { serveExpress } from './serve-express.js';
import { serveFastify } from './serve-fastify.js';

/**
 * What the shared suites run on: an adapter serving a backend (the served suites), or a backend
 * alone (the storage conformance suite). Each suite's test file here picks its targets from these.
 */

/** An adapter serving a fresh storage of one backend, with the WebSocket client the socket suites use. */
export interface ServedTarget {
  name: string;
  storage: () => Promise<Storage> | Storage;
  serve: typeof serveFastify;
  WebSocket: typeof WebSocket;
}

export const expressMemory: ServedTarget = { name: 'express + memory', storage: () => memoryStorage(), serve: serveExpress, WebSocket };
export const fastifyMemory: ServedTarget = { name: 'fastify + memory', storage: () => memoryStorage(), serve: serveFastify, WebSocket };

/**
 * Fastify on Postgres, each storage on a fresh schema of the test database, all dropped after the
 * file (so call it at a file's top level).
 */
export function fastifyPostgres(): ServedTarget {
  const schemas = testSchemas();
  return { name: 'fastify + postgres', storage: () => createStorage(schemas.next()), serve: serveFastify, WebSocket };
}

/** The backends alone, for the storage conformance suite; Postgres as `fastifyPostgres` has it. */
export function storageBackends(): [name: string, factory: StorageFactory][] {
  const schemas = testSchemas();
  return [
    ['memory', async () => memoryStorage()],
    ['postgres', () => createStorage(schemas.next())],
  ];
}
