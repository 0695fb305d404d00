import { storageConformanceSuite } from '@chainlens/core/testing';
import { memoryStorage } from '../src/index.js';

storageConformanceSuite('memory', async () => memoryStorage());
