import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';
import { ConfigError } from './errors/index.js';
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
    expect(config.consensus).toEqual({ type: 'evm', validatorWindowBlocks: 100 });
    expect(config.indexer).toMatchObject({ enabled: true, concurrency: 8 });
    expect(config.http.bodyLimit).toBe(1_048_576);
    expect(config.auth).toMatchObject({ tokenLifetimeSeconds: 604_800, passwordMinLength: 15, issuer: 'chainlens', audience: 'chainlens-api' });
    expect(config.auth.jwtSecret).toBeUndefined();
  });

  it('gives verification sane limits and resolves the compilers directory', () => {
    const config = resolveConfig({ rpcUrl: 'http://127.0.0.1:8545', storage });
    expect(config.verification).toEqual({ timeoutMs: 60_000, maxMemoryMb: 1_024, maxConcurrent: 2, maxQueued: 16 });
    expect(resolveConfig({ rpcUrl: 'http://127.0.0.1:8545', storage, verification: { compilersDir: '.' } }).verification.compilersDir).toBe(process.cwd());
  });

  it.each([
    [{ storage }, 'rpcUrl'],
    [{ rpcUrl: 'ftp://node', storage }, 'rpcUrl'],
    [{ rpcUrl: 'http://127.0.0.1:8545' }, 'storage'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, startBlock: -1 }, 'startBlock'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, indexer: { concurrency: 0 } }, 'indexer.concurrency'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, auth: { jwtSecret: 'x'.repeat(31) } }, 'auth.jwtSecret'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, auth: { passwordMinLength: 7 } }, 'auth.passwordMinLength'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, verification: { compilersDir: '/no/such/directory' } }, 'verification.compilersDir'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, verification: { maxMemoryMb: 16 } }, 'verification.maxMemoryMb'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, consensus: { type: 'aura' } }, 'consensus.type'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, consensus: { type: 'cometbft' } }, 'consensus.cometbftUrl'],
    [{ rpcUrl: 'http://127.0.0.1:8545', storage, consensus: { type: 'evm', validatorWindowBlocks: 0 } }, 'consensus.validatorWindowBlocks'],
  ])('names the bad option in one error (%#)', (config, option) => {
    expect(() => resolveConfig(config as never)).toThrowError(ConfigError);
    expect(() => resolveConfig(config as never)).toThrowError(new RegExp(`^Invalid ChainLens config: ${option.replace('.', '\\.')}: `));
  });

  it.each([
    [{ indexer: { concurrency: 0 } }, 'indexer.concurrency: must be at least 1, got 0'],
    [{ indexer: { concurrency: 99 } }, 'indexer.concurrency: must be at most 64, got 99'],
    [{ http: { bodyLimit: '1mb' } }, 'http.bodyLimit: must be a number, got "1mb"'],
    [{ logLevel: 'verbose' }, 'logLevel: must be one of "fatal", "error", "warn", "info", "debug", "trace", "silent", got "verbose"'],
    [{ metrics: { scope: 'root' } }, "metrics.scope: must be 'admin' or null (public)"],
    [{ indexr: { concurrency: 4 } }, 'indexr: "indexr" is not an option; check the spelling against the configuration reference in docs/embedding.md'],
  ])('says what to set instead (%#)', (config, message) => {
    expect(() => resolveConfig({ rpcUrl: 'http://127.0.0.1:8545', storage, ...config } as never)).toThrowError(`Invalid ChainLens config: ${message}`);
  });

  it('serves metrics to admins by default', () => {
    expect(resolveConfig({ rpcUrl: 'http://127.0.0.1:8545', storage }).metrics).toEqual({ enabled: true, scope: 'admin' });
  });

  it('serves the explorer page only when asked, at / by default, never over its own routes', () => {
    expect(resolveConfig({ rpcUrl: 'http://127.0.0.1:8545', storage }).ui).toBeUndefined();
    expect(resolveConfig({ rpcUrl: 'http://127.0.0.1:8545', storage, ui: {} }).ui).toEqual({ path: '/' });
    expect(resolveConfig({ rpcUrl: 'http://127.0.0.1:8545', storage, ui: { path: '/tools/explorer' } }).ui).toEqual({ path: '/tools/explorer' });
    expect(() => resolveConfig({ rpcUrl: 'http://127.0.0.1:8545', storage, ui: { path: '/docs' } })).toThrow(
      'Invalid ChainLens config: ui.path: must not start with a path ChainLens serves itself (/api, /docs, /graphql, /ws, /metrics)',
    );
    for (const path of ['explorer', '/explorer/', '//', '/a b']) {
      expect(() => resolveConfig({ rpcUrl: 'http://127.0.0.1:8545', storage, ui: { path } }), path).toThrow(ConfigError);
    }
  });
});

