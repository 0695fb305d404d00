import { channelsSuite } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { WebSocket } from 'ws';
import { serveFastify } from './serve.js';

channelsSuite({
  name: 'fastify + memory',
  storage: () => memoryStorage(),
  WebSocket,
  serve: serveFastify,
});
