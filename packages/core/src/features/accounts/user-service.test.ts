import { memoryStorage } from '@chainlens/storage-memory';
import { describe, expect, it } from 'vitest';
import { InvalidCredentialsError, RateLimitedError } from '../../errors/index.js';
import { Throttles } from './throttles.js';
import { PasswordHasher } from '../../auth/passwords.js';
import { TokenIssuer } from '../../auth/jwt.js';
import { UserService } from './user-service.js';

const secret = new TextEncoder().encode('a-test-secret-that-is-long-enough-for-hs256');

async function service(): Promise<UserService> {
  const storage = memoryStorage();
  await storage.init();
  const tokens = new TokenIssuer({ secret, lifetimeSeconds: 60, issuer: 'chainlens', audience: 'chainlens-api', now: Date.now });
  // The login throttle would stop 400 failures of one account; this test measures timing only.
  const throttles = new Throttles(storage, { registrationsPerHour: 10, loginFailures: Number.POSITIVE_INFINITY, loginWindowMinutes: 15, now: Date.now });
  return new UserService(storage, new PasswordHasher(), tokens, throttles, Date.now);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('UserService login timing', () => {
  it('takes about as long for an unknown email as for a known one with a wrong password (median of 200, within 1.25×)', async () => {
    const users = await service();
    await users.register({ email: 'known@example.com', password: 'the right passphrase', name: 'Known' }, '127.0.0.1');
    const time = async (email: string) => {
      const started = performance.now();
      await expect(users.login(email, 'a wrong passphrase!')).rejects.toBeInstanceOf(InvalidCredentialsError);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so drift on a shared machine hits both sides alike.
    for (let i = 0; i < 200; i++) {
      known.push(await time('known@example.com'));
      unknown.push(await time(`nobody-${i}@example.com`));
    }
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(1 / 1.25);
    expect(ratio).toBeLessThan(1.25);
  }, 120_000);
});

describe('UserService login throttle', () => {
  it('a login that storage cannot answer uses up none of the allowance', async () => {
    const storage = memoryStorage();
    await storage.init();
    const tokens = new TokenIssuer({ secret, lifetimeSeconds: 60, issuer: 'chainlens', audience: 'chainlens-api', now: Date.now });
    const throttles = new Throttles(storage, { registrationsPerHour: 10, loginFailures: 2, loginWindowMinutes: 15, now: Date.now });
    const users = new UserService(storage, new PasswordHasher(), tokens, throttles, Date.now);
    await users.register({ email: 'ada@example.com', password: 'the right passphrase', name: 'Ada' }, '127.0.0.1');
    const outage = new Error('storage is down');
    const lookup = storage.getUserByEmail.bind(storage);
    storage.getUserByEmail = () => Promise.reject(outage);
    for (let i = 0; i < 3; i++) await expect(users.login('ada@example.com', 'the right passphrase')).rejects.toBe(outage);
    storage.getUserByEmail = lookup;

    for (let i = 0; i < 2; i++) await expect(users.login('ada@example.com', 'a wrong passphrase!')).rejects.toBeInstanceOf(InvalidCredentialsError);
    await expect(users.login('ada@example.com', 'the right passphrase')).rejects.toBeInstanceOf(RateLimitedError);
  });
});
