import { fuzzSuite } from '../../src/index.js';
import { fastifyPostgres } from '../targets.js';

fuzzSuite(fastifyPostgres());
