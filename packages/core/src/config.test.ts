import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from './config.js';
import type { Storage } from './storage/index.js';

const storage = {
  init: async () => undefined,
  close: async () => undefined,
  writeBlock: async () => undefined,
  rollbackTo: async () => undefined,
  getCursor: async () => null,
  getTransaction: async () => null,
} as unknown as Storage;

describe('explorer config', () => {
  it('fills every default', () => {
    const config = resolveConfig({ rpcUrl: 'http://127.0.0.1:8545', storage });
    expect(config.startBlock).toBe(0n);
    expect(config.requiredConfirmations).toBe(12);
    expect(config.indexer).toMatchObject({ enabled: true, concurrency: 8 });
    expect(config.http.bodyLimit).toBe(1_048_576);
    expect(config.auth).toMatchObject({ tokenLifetimeSeconds: 604_800, passwordMinLength: 15, issuer: 'chainlens', audience: 'chainlens-api' });
    expect(config.auth.jwtSecret).toBeUndefined();
  });

  it.each([
    [{ storage }, 'rpcUrl'],
    [{ rpcUrl: 'ftp://node', storage }, 'rpcUrl'],
    [{ rpcUrl: 'http://127.0.0.1:8545' }, 'storage'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, startBlock: -1 }, 'startBlock'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, indexer: { concurrency: 0 } }, 'indexer.concurrency'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, auth: { jwtSecret: 'x'.repeat(31) } }, 'auth.jwtSecret'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, auth: { passwordMinLength: 7 } }, 'auth.passwordMinLength'],
  ])('names the bad option in one error (%#)', (config, option) => {
    expect(() => resolveConfig(config as never)).toThrowError(ConfigError);
    expect(() => resolveConfig(config as never)).toThrowError(new RegExp(`^Invalid ChainLens config: ${option.replace('.', '\\.')}: `));
  });
});
