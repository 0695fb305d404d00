import { apiConformanceSuite } from '@chainlens/core/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { serveFastify } from './serve.js';

apiConformanceSuite({
  name: 'fastify + memory',
  storage: () => memoryStorage(),
  serve: serveFastify,
});
