import { apiConformanceSuite } from '../../src/index.js';
import { fastifyPostgres } from '../targets.js';

apiConformanceSuite(fastifyPostgres());
