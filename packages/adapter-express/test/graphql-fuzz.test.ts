import { graphqlFuzzSuite } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { WebSocket } from 'ws';
import { serveExpress } from './serve.js';

graphqlFuzzSuite({
  name: 'express + memory',
  storage: () => memoryStorage(),
  WebSocket,
  serve: serveExpress,
});
