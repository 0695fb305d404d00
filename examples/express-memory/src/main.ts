/**
 * ChainLens inside an existing Express app, mounted under `/explorer`, keeping its data in
 * memory (gone on restart: for development and small chains).
 *
 *   EXPLORER_RPC_URL=http://127.0.0.1:8545 npm start -w examples/express-memory
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chainlensRouter } from '@chainlens/adapter-express';
import { createExplorer, handleClientError } from '@chainlens/core';
import { memoryStorage } from '@chainlens/storage-memory';
import express from 'express';

const explorer = await createExplorer({
  rpcUrl: process.env.EXPLORER_RPC_URL ?? 'http://127.0.0.1:8545',
  storage: memoryStorage(),
  // Unset: a random secret per process (tokens end with it), with a warning.
  auth: { jwtSecret: process.env.EXPLORER_JWT_SECRET },
});

const app = express();
app.disable('x-powered-by');
app.get('/', (_request, response) => {
  response.send('My app. The explorer lives under /explorer (API reference: /explorer/docs).');
});
app.use('/explorer', chainlensRouter(explorer));

// Keep-alive as long as Fastify's: Node's 5 s would close pooled connections under their clients.
const server = createServer({ keepAliveTimeout: 72_000 }, app);
// Oversized headers and malformed requests get ChainLens's envelope too.
server.on('clientError', handleClientError);
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Explorer at http://127.0.0.1:${port}/explorer (docs: /explorer/docs)`);
});
await explorer.start();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void explorer.close().then(() => process.exit(0));
  });
}
