import { graphqlSubscriptionSuite } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { WebSocket } from 'ws';
import { serveFastify } from './serve.js';

graphqlSubscriptionSuite({
  name: 'fastify + memory',
  storage: () => memoryStorage(),
  WebSocket,
  serve: serveFastify,
});
