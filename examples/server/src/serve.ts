import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleClientError, type Explorer } from '@chainlens/core';

/** A listening HTTP server with its real address. */
export interface Listening {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `explorer` through the chosen adapter on `host:port` (`0` picks a free port). Only the
 * chosen framework is loaded: the other would cost start-up time for nothing.
 */
export async function serve(explorer: Explorer, adapter: 'fastify' | 'express', host: string, port: number): Promise<Listening> {
  if (adapter === 'fastify') {
    const [{ chainlens, frameworkErrors }, { default: Fastify }] = await Promise.all([import('@chainlens/adapter-fastify'), import('fastify')]);
    const app = Fastify({ clientErrorHandler: handleClientError, frameworkErrors });
    await app.register(chainlens, { explorer });
    await app.listen({ host, port });
    return { url: urlOf(app.server, host), close: () => app.close() };
  }
  const [{ attachChainlensSockets, chainlensRouter }, { default: express }] = await Promise.all([import('@chainlens/adapter-express'), import('express')]);
  const app = express();
  app.disable('x-powered-by');
  app.use(chainlensRouter(explorer));
  // Fastify's keep-alive timeout: Node's 5 s would close pooled connections of clients and load
  // balancers (often 60 s idle) under them, and their next request would fail.
  const server = createServer({ keepAliveTimeout: 72_000 }, app);
  server.on('clientError', handleClientError);
  // Fastify's plugin serves `/ws` itself; Express needs the upgrade handler on the server.
  const detachSockets = attachChainlensSockets(server, explorer);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    url: urlOf(server, host),
    close: () => {
      detachSockets();
      return closeServer(server);
    },
  };
}

function urlOf(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
