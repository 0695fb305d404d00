import { fuzzSuite } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { serveFastify } from './serve.js';

fuzzSuite({
  name: 'fastify + memory',
  storage: () => memoryStorage(),
  serve: serveFastify,
});
