import { storageConformanceSuite } from '../src/index.js';
import { storageBackends } from './targets.js';

for (const [name, factory] of storageBackends()) storageConformanceSuite(name, factory);
