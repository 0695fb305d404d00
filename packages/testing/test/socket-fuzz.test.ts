import { socketFuzzSuite } from '../src/index.js';
import { expressMemory, fastifyMemory, fastifyPostgres } from './targets.js';

for (const target of [expressMemory, fastifyMemory, fastifyPostgres()]) socketFuzzSuite(target);
