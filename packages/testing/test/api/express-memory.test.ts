import { apiConformanceSuite } from '../../src/index.js';
import { expressMemory } from '../targets.js';

apiConformanceSuite(expressMemory);
