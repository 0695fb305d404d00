import { reorgSuite } from '../src/index.js';
import { expressMemory, fastifyPostgres } from './targets.js';

// The targets this suite has run on since it was written: each adapter once, each backend once.
for (const target of [expressMemory, fastifyPostgres()]) reorgSuite(target);
