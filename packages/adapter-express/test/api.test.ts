import { apiConformanceSuite } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { serveExpress } from './serve.js';

apiConformanceSuite({
  name: 'express + memory',
  storage: () => memoryStorage(),
  serve: serveExpress,
});
