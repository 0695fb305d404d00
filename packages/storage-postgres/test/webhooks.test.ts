import { webhookSuite } from '@chainlens/testing';
import { createStorage, testSchemas } from './database.js';
import { serveFastify } from '../../adapter-fastify/test/serve.js';

const schemas = testSchemas();

webhookSuite({ name: 'fastify + postgres', storage: () => createStorage(schemas.next()), serve: serveFastify });
