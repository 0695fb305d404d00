import { apiConformanceSuite } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { serveFastify } from './serve.js';

apiConformanceSuite({
  name: 'fastify + memory',
  storage: () => memoryStorage(),
  serve: serveFastify,
});
