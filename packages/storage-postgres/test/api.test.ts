import type { AddressInfo } from 'node:net';
import { chainlens } from '@chainlens/adapter-fastify';
import { handleClientError } from '@chainlens/core';
import { apiConformanceSuite } from '@chainlens/core/testing';
import Fastify from 'fastify';
import { createStorage, testSchemas } from './database.js';

const schemas = testSchemas();

apiConformanceSuite({
  name: 'fastify + postgres',
  storage: () => createStorage(schemas.next()),
  async serve(explorer) {
    const app = Fastify({ clientErrorHandler: handleClientError });
    await app.register(chainlens, { explorer });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
  },
});
