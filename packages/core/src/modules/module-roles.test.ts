import { memoryStorage } from '@chainlens/storage-memory';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createChainClient } from '../chain/chain-client.js';
import { createEventHub } from '../events/index.js';
import type { ExplorerModule } from './module.js';
import { ModuleHost } from './module-host.js';

/**
 * A module that declared it reads labels and writes nothing. What it may not reach is marked
 * `@ts-expect-error`: the typecheck fails if any of those lines compiles, so the declaration is
 * what bounds the module's storage.
 */
const labelsReader: ExplorerModule<void, Promise<string | null>, 'LabelStorage'> = {
  name: 'labels-reader',
  register(app) {
    // @ts-expect-error: AccountStorage was not declared
    void app.storage.getUserByEmail;
    // @ts-expect-error: the chain's roles were not declared
    void app.storage.writeBlock;
    // @ts-expect-error: the module declared no role to write
    void app.writer.putAddressLabel;
    return app.storage.getAddressLabels(['0x00000000000000000000000000000000000000aa']).then(([found]) => found?.label ?? null);
  },
};

describe('a module’s storage roles', () => {
  it('hands the module the roles it declared, which reach the explorer’s storage', async () => {
    const storage = memoryStorage();
    await storage.init();
    await storage.putAddressLabel({ address: '0x00000000000000000000000000000000000000aa', label: 'Treasury', category: null, note: null, updatedAt: '2026-11-27T00:00:00.000Z' });
    const app = new ModuleHost({ logger: pino({ level: 'silent' }), storage, writer: storage, chain: createChainClient({ rpcUrl: 'http://127.0.0.1:1', timeoutMs: 1 }), hub: createEventHub(), clock: Date.now });
    expect(await app.register(labelsReader, undefined)).toBe('Treasury');
    await storage.close();
  });
});
