import type { AddressInfo } from 'node:net';
import { handleClientError, type Explorer } from '@chainlens/core';
import type { ServedApi } from '../src/index.js';
import Fastify from 'fastify';
import { chainlens, frameworkErrors } from '@chainlens/adapter-fastify';

/**
 * Serves `explorer` from a Fastify app on a free port, with the envelope for Node's and Fastify's
 * own refusals, as the suites need.
 */
export async function serveFastify(explorer: Explorer): Promise<ServedApi> {
  const app = Fastify({ clientErrorHandler: handleClientError, frameworkErrors });
  await app.register(chainlens, { explorer });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
}
