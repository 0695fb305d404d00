import { webhookSuite } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { serveFastify } from './serve.js';

webhookSuite({ name: 'fastify + memory', storage: () => memoryStorage(), serve: serveFastify });
