import { apiConformanceSuite } from '../../src/index.js';
import { fastifyMemory } from '../targets.js';

apiConformanceSuite(fastifyMemory);
