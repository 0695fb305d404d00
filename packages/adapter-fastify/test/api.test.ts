import type { AddressInfo } from 'node:net';
import { handleClientError } from '@chainlens/core';
import { apiConformanceSuite } from '@chainlens/core/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import Fastify from 'fastify';
import { chainlens } from '../src/index.js';

apiConformanceSuite({
  name: 'fastify + memory',
  storage: () => memoryStorage(),
  async serve(explorer) {
    const app = Fastify({ clientErrorHandler: handleClientError });
    await app.register(chainlens, { explorer });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
  },
});
