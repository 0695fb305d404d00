import { channelsSuite } from '@chainlens/testing';
import { WebSocket } from 'ws';
import { createStorage, testSchemas } from './database.js';
import { serveFastify } from '../../adapter-fastify/test/serve.js';

const schemas = testSchemas();

channelsSuite({
  name: 'fastify + postgres',
  storage: () => createStorage(schemas.next()),
  WebSocket,
  serve: serveFastify,
});
