import { fuzzSuite } from '@chainlens/testing';
import { createStorage, testSchemas } from './database.js';
import { serveFastify } from '../../adapter-fastify/test/serve.js';

const schemas = testSchemas();

fuzzSuite({
  name: 'fastify + postgres',
  storage: () => createStorage(schemas.next()),
  serve: serveFastify,
});
