import { storageConformanceSuite } from '@chainlens/testing';
import { memoryStorage } from '../src/index.js';

storageConformanceSuite('memory', async () => memoryStorage());
