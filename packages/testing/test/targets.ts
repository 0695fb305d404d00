import type { Storage } from '@chainlens/core';
import { memoryStorage } from '@chainlens/storage-memory';
import { WebSocket } from 'ws';
import { postgresStorage } from '@chainlens/storage-postgres';
import { testDatabaseUrl, testSchemas, type StorageFactory } from '../src/index.js';
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

/** Postgres storages, each on the next of `schemas` in the test database. */
const postgresOn = (schemas: { next(): string }) => async () => postgresStorage({ connectionString: await testDatabaseUrl(), schema: schemas.next() });

/**
 * Fastify on Postgres, each storage on a fresh schema of the test database, all dropped after the
 * file (so call it at a file's top level).
 */
export function fastifyPostgres(): ServedTarget {
  return { name: 'fastify + postgres', storage: postgresOn(testSchemas()), serve: serveFastify, WebSocket };
}

/** The backends alone, for the storage conformance suite; Postgres as `fastifyPostgres` has it. */
export function storageBackends(): [name: string, factory: StorageFactory][] {
  return [
    ['memory', async () => memoryStorage()],
    ['postgres', postgresOn(testSchemas())],
  ];
}
