import { describe, expect, it } from 'vitest';
import { readEnv } from '../src/env.js';

describe('readEnv', () => {
  it('reads each tier as <perMinute>/<perDay>, leaving unset tiers to the library', () => {
    const env = readEnv({ EXPLORER_RATE_LIMITS_ANONYMOUS: '60/5000', EXPLORER_RATE_LIMITS_PREMIUM: '20000/2000000' });
    expect(env.EXPLORER_RATE_LIMITS_ANONYMOUS).toEqual({ perMinute: 60, perDay: 5_000 });
    expect(env.EXPLORER_RATE_LIMITS_AUTHENTICATED).toBeUndefined();
    expect(env.EXPLORER_RATE_LIMITS_PREMIUM).toEqual({ perMinute: 20_000, perDay: 2_000_000 });
  });

  it('refuses a malformed tier, naming the variable', () => {
    for (const [name, value] of [
      ['EXPLORER_RATE_LIMITS_ANONYMOUS', '100'],
      ['EXPLORER_RATE_LIMITS_AUTHENTICATED', '0/100'],
      ['EXPLORER_RATE_LIMITS_PREMIUM', '10/day'],
    ]) {
      expect(() => readEnv({ [name!]: value })).toThrow(`Invalid environment: ${name}: must be <perMinute>/<perDay>`);
    }
  });

  it('reads EXPLORER_WEBHOOKS_ALLOW_PRIVATE_TARGETS as true or false (false by default) and refuses anything else', () => {
    expect(readEnv({}).EXPLORER_WEBHOOKS_ALLOW_PRIVATE_TARGETS).toBe('false');
    expect(readEnv({ EXPLORER_WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' }).EXPLORER_WEBHOOKS_ALLOW_PRIVATE_TARGETS).toBe('true');
    expect(() => readEnv({ EXPLORER_WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow('Invalid environment: EXPLORER_WEBHOOKS_ALLOW_PRIVATE_TARGETS');
  });

  it('reads EXPLORER_WEBHOOKS_RETENTION_DAYS as whole days (unset by default) and refuses anything else', () => {
    expect(readEnv({}).EXPLORER_WEBHOOKS_RETENTION_DAYS).toBeUndefined();
    expect(readEnv({ EXPLORER_WEBHOOKS_RETENTION_DAYS: '7' }).EXPLORER_WEBHOOKS_RETENTION_DAYS).toBe(7);
    for (const value of ['0', '1.5', '-3', 'week']) {
      expect(() => readEnv({ EXPLORER_WEBHOOKS_RETENTION_DAYS: value })).toThrow('Invalid environment: EXPLORER_WEBHOOKS_RETENTION_DAYS');
    }
  });
});
