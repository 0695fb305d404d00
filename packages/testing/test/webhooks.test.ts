import { webhookSuite } from '../src/index.js';
import { fastifyMemory, fastifyPostgres } from './targets.js';

for (const target of [fastifyMemory, fastifyPostgres()]) webhookSuite(target);
