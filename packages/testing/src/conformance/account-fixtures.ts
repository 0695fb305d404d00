import { createHash, randomUUID } from 'node:crypto';
import type { StoredApiKey, StoredUser } from '@chainlens/core';

/** A time with milliseconds, so a backend that drops them fails the round trip. */
export const T0 = 1_700_000_000_123;

/** `T0` moved by `ms`, as a fresh Date. */
export function at(ms: number): Date {
  return new Date(T0 + ms);
}

/** A user with a fresh id and an email made from it (so two users never clash); `fields` win. */
export function makeUser(fields: Partial<StoredUser> = {}): StoredUser {
  const id = fields.id ?? randomUUID();
  return {
    id,
    email: `user-${id}@example.com`,
    name: 'Ada Lovelace',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA',
    roles: ['premium', 'user'],
    isActive: true,
    createdAt: at(0),
    ...fields,
  };
}

/** A key of `userId` with a fresh id and a hash made from it; `fields` win. */
export function makeApiKey(userId: string, fields: Partial<StoredApiKey> = {}): StoredApiKey {
  const id = fields.id ?? randomUUID();
  return {
    id,
    userId,
    name: 'deploy bot',
    description: 'used by CI',
    keyHash: createHash('sha256').update(id).digest('hex'),
    prefix: `cl_${id.slice(0, 8)}`,
    scopes: ['read', 'write'],
    expiresAt: at(86_400_000),
    isActive: true,
    rateLimitPerMinute: null,
    createdAt: at(0),
    ...fields,
  };
}
