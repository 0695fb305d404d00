import { fuzzSuite } from '../../src/index.js';
import { expressMemory } from '../targets.js';

fuzzSuite(expressMemory);
