import { storageConformanceSuite } from '@chainlens/testing';
import { createStorage, testSchemas } from './database.js';

const schemas = testSchemas();

storageConformanceSuite('postgres', () => createStorage(schemas.next()));
