import { graphqlFuzzSuite } from '../../src/index.js';
import { fastifyMemory } from '../targets.js';

graphqlFuzzSuite(fastifyMemory);
