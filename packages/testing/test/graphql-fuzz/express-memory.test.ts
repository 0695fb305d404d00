import { graphqlFuzzSuite } from '../../src/index.js';
import { expressMemory } from '../targets.js';

graphqlFuzzSuite(expressMemory);
