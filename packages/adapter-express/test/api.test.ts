import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleClientError } from '@chainlens/core';
import { apiConformanceSuite } from '@chainlens/core/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import express from 'express';
import { chainlensRouter } from '../src/index.js';

apiConformanceSuite({
  name: 'express + memory',
  storage: () => memoryStorage(),
  async serve(explorer) {
    const app = express();
    app.use(chainlensRouter(explorer));
    const server = createServer(app);
    server.on('clientError', handleClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  },
});
