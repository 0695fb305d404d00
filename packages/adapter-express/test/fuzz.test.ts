import { fuzzSuite } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { serveExpress } from './serve.js';

fuzzSuite({
  name: 'express + memory',
  storage: () => memoryStorage(),
  serve: serveExpress,
});
