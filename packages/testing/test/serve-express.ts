import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleClientError, type Explorer } from '@chainlens/core';
import type { ServedApi } from '../src/index.js';
import express from 'express';
import { attachChainlensSockets, chainlensRouter } from '@chainlens/adapter-express';

/** Serves `explorer` from an Express app on a free port, WebSocket upgrades included, as the suites need. */
export async function serveExpress(explorer: Explorer): Promise<ServedApi> {
  const app = express();
  app.use(chainlensRouter(explorer));
  // Fastify's keep-alive timeout rather than Node's 5 s: on a busy machine a client's pooled
  // connection could otherwise be closed by the server just as it sends its next request.
  const server = createServer({ keepAliveTimeout: 72_000 }, app);
  server.on('clientError', handleClientError);
  const detach = attachChainlensSockets(server, explorer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        detach();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
