import { graphqlSubscriptionSuite } from '../src/index.js';
import { expressMemory, fastifyMemory } from './targets.js';

// The targets this suite has run on since it was written: both adapters, on memory.
for (const target of [expressMemory, fastifyMemory]) graphqlSubscriptionSuite(target);
