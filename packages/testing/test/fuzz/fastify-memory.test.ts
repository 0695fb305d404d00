import { fuzzSuite } from '../../src/index.js';
import { fastifyMemory } from '../targets.js';

fuzzSuite(fastifyMemory);
