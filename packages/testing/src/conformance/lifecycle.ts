import { describe, expect, it } from 'vitest';
import { makeChain } from '../fixtures.js';
import { type StorageFactory, storageTest } from './harness.js';

/** init, close and ping. */
export function lifecycleTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('lifecycle', () => {
    it('init can be called twice', async () => {
      const storage = await factory();
      try {
        await storage.init();
        await storage.init();
        await storage.writeBlock(makeChain({ blocks: 1 })[0]!);
        expect(await storage.getCursor()).not.toBeNull();
      } finally {
        await storage.close();
      }
    });

    it('close can be called twice', async () => {
      const storage = await factory();
      await storage.init();
      await storage.close();
      await expect(storage.close()).resolves.toBeUndefined();
    });

    test('ping resolves on an initialised storage', async (storage) => {
      await expect(storage.ping()).resolves.toBeUndefined();
    });

    test('ping resolves on a storage holding blocks', async (storage) => {
      await storage.writeBlock(makeChain({ blocks: 1 })[0]!);
      await expect(storage.ping()).resolves.toBeUndefined();
    });
  });
}
