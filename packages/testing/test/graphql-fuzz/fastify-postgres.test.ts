import { graphqlFuzzSuite } from '../../src/index.js';
import { fastifyPostgres } from '../targets.js';

graphqlFuzzSuite(fastifyPostgres());
