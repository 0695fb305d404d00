import { describe, expect, it } from 'vitest';
import { PasswordHasher } from './passwords.js';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher();

  it('stores argon2id at OWASP cost: 19 MiB, 2 passes, 1 lane, a fresh salt each time', async () => {
    const first = await hasher.hash('correct horse battery staple');
    const second = await hasher.hash('correct horse battery staple');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse');
  });

  it('verifies the right password only, without truncating long ones', async () => {
    const long = `${'x'.repeat(200)}-end`;
    const stored = await hasher.hash(long);
    expect(await hasher.verify(stored, long)).toBe(true);
    expect(await hasher.verify(stored, `${'x'.repeat(200)}-eNd`)).toBe(false);
    expect(await hasher.verify(stored, 'x'.repeat(200))).toBe(false);
  });

  it('answers false for a missing hash (unknown user) after doing the same work', async () => {
    expect(await hasher.verify(null, 'anything at all')).toBe(false);
    expect(await hasher.verify('not a phc string', 'anything at all')).toBe(false);
  });
});
