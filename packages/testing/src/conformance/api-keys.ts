import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { Storage, StoredApiKey, StoredUser } from '@chainlens/core';
import { makeChain } from '../fixtures.js';
import { at, makeApiKey, makeUser } from './account-fixtures.js';
import { type StorageFactory, storageTest, writeChain } from './harness.js';

/** Stores a fresh user and resolves it. */
async function createdUser(storage: Storage): Promise<StoredUser> {
  const user = makeUser();
  await storage.createUser(user);
  return user;
}

/** Stores a fresh key of `userId` and resolves it. */
async function createdKey(storage: Storage, userId: string, fields: Partial<StoredApiKey> = {}): Promise<StoredApiKey> {
  const key = makeApiKey(userId, fields);
  await storage.createApiKey(key);
  return key;
}

/** createApiKey, getApiKeyByHash, getApiKeyWithOwner, listApiKeys and updateApiKey; users and keys across rollbacks. */
export function apiKeyTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('API keys', () => {
    test('a created key reads back by hash and in its owner’s list as written', async (storage) => {
      const user = await createdUser(storage);
      const key = await createdKey(storage, user.id);
      expect(await storage.getApiKeyByHash(key.keyHash)).toEqual(key);
      expect(await storage.listApiKeys(user.id)).toEqual([key]);
    });

    test('nullable fields round-trip as null and as values', async (storage) => {
      const user = await createdUser(storage);
      const bare = await createdKey(storage, user.id, { description: null, expiresAt: null, rateLimitPerMinute: null });
      const full = await createdKey(storage, user.id, {
        description: 'nightly export',
        expiresAt: at(3_600_123),
        rateLimitPerMinute: 600,
        scopes: ['admin', 'read', 'write'],
      });
      const none = await createdKey(storage, user.id, { scopes: [], isActive: false });
      expect(await storage.getApiKeyByHash(bare.keyHash)).toEqual(bare);
      expect(await storage.getApiKeyByHash(full.keyHash)).toEqual(full);
      expect(await storage.getApiKeyByHash(none.keyHash)).toEqual(none);
    });

    test('an unknown hash is null; hashes match exactly', async (storage) => {
      const user = await createdUser(storage);
      const key = await createdKey(storage, user.id);
      expect(await storage.getApiKeyByHash('0'.repeat(64))).toBeNull();
      expect(await storage.getApiKeyByHash(key.keyHash.toUpperCase())).toBeNull();
      expect(await storage.getApiKeyByHash('not a hash')).toBeNull();
    });

    test('getApiKeyWithOwner answers the key with its owner as stored now, and null for an unknown hash', async (storage) => {
      const user = await createdUser(storage);
      const key = await createdKey(storage, user.id, { expiresAt: at(60_000), rateLimitPerMinute: 7, scopes: ['admin', 'read'] });
      expect(await storage.getApiKeyWithOwner(key.keyHash)).toEqual({ key, owner: user });
      await storage.updateUser(user.id, { isActive: false, roles: ['premium', 'user'] });
      await storage.updateApiKey(key.id, { isActive: false });
      expect(await storage.getApiKeyWithOwner(key.keyHash)).toEqual({
        key: { ...key, isActive: false },
        owner: { ...user, isActive: false, roles: ['premium', 'user'] },
      });
      const orphan = await createdKey(storage, randomUUID());
      expect(await storage.getApiKeyWithOwner(orphan.keyHash)).toEqual({ key: orphan, owner: null });
      expect(await storage.getApiKeyWithOwner('0'.repeat(64))).toBeNull();
      expect(await storage.getApiKeyWithOwner(key.keyHash.toUpperCase())).toBeNull();
    });

    test('listApiKeys lists only the owner’s keys, newest first, ties by id descending', async (storage) => {
      const [alice, bob] = [await createdUser(storage), await createdUser(storage)];
      const [tieA, tieB] = [makeApiKey(alice.id, { createdAt: at(2_000) }), makeApiKey(alice.id, { createdAt: at(2_000) })];
      const keys = [
        makeApiKey(alice.id, { createdAt: at(1_000) }),
        tieA,
        makeApiKey(alice.id, { createdAt: at(3_000) }),
        tieB,
        makeApiKey(alice.id, { createdAt: at(0) }),
      ];
      const bobs = makeApiKey(bob.id, { createdAt: at(1_500) });
      for (const key of [keys[0]!, bobs, ...keys.slice(1)]) await storage.createApiKey(key);
      const [newerTie, olderTie] = tieA.id > tieB.id ? [tieA, tieB] : [tieB, tieA];

      expect(await storage.listApiKeys(alice.id)).toEqual([keys[2], newerTie, olderTie, keys[0], keys[4]]);
      expect(await storage.listApiKeys(bob.id)).toEqual([bobs]);
    });

    test('listApiKeys of a user without keys, or of a malformed id, is empty', async (storage) => {
      const user = await createdUser(storage);
      await createdKey(storage, user.id);
      expect(await storage.listApiKeys(randomUUID())).toEqual([]);
      expect(await storage.listApiKeys('not-a-uuid')).toEqual([]);
    });

    test('revoked keys are still listed and found by hash', async (storage) => {
      const user = await createdUser(storage);
      const kept = await createdKey(storage, user.id, { createdAt: at(1_000) });
      const revoked = await createdKey(storage, user.id, { createdAt: at(2_000) });
      await storage.updateApiKey(revoked.id, { isActive: false });
      expect(await storage.listApiKeys(user.id)).toEqual([{ ...revoked, isActive: false }, kept]);
      expect(await storage.getApiKeyByHash(revoked.keyHash)).toEqual({ ...revoked, isActive: false });
    });

    test('updateApiKey with another user as owner is null and changes nothing', async (storage) => {
      const [owner, other] = [await createdUser(storage), await createdUser(storage)];
      const key = await createdKey(storage, owner.id, { rateLimitPerMinute: 60 });
      expect(await storage.updateApiKey(key.id, { isActive: false, rateLimitPerMinute: null }, other.id)).toBeNull();
      expect(await storage.updateApiKey(key.id, { isActive: false }, 'not-a-uuid')).toBeNull();
      expect(await storage.getApiKeyByHash(key.keyHash)).toEqual(key);
    });

    test('updateApiKey with the owner updates, resolves and persists the key', async (storage) => {
      const user = await createdUser(storage);
      const key = await createdKey(storage, user.id);
      const revoked = { ...key, isActive: false };
      expect(await storage.updateApiKey(key.id, { isActive: false }, user.id)).toEqual(revoked);
      expect(await storage.getApiKeyByHash(key.keyHash)).toEqual(revoked);
      expect(await storage.listApiKeys(user.id)).toEqual([revoked]);
    });

    test('updateApiKey without an owner updates any key', async (storage) => {
      const user = await createdUser(storage);
      const key = await createdKey(storage, user.id);
      const limited = { ...key, rateLimitPerMinute: 1_200 };
      expect(await storage.updateApiKey(key.id, { rateLimitPerMinute: 1_200 })).toEqual(limited);
      expect(await storage.getApiKeyByHash(key.keyHash)).toEqual(limited);
    });

    test('rateLimitPerMinute: null clears the limit; an absent field leaves it', async (storage) => {
      const user = await createdUser(storage);
      const key = await createdKey(storage, user.id, { rateLimitPerMinute: 300 });
      expect(await storage.updateApiKey(key.id, { isActive: false })).toEqual({ ...key, isActive: false });
      expect(await storage.updateApiKey(key.id, { rateLimitPerMinute: undefined })).toEqual({ ...key, isActive: false });
      expect(await storage.updateApiKey(key.id, { rateLimitPerMinute: null })).toEqual({
        ...key,
        isActive: false,
        rateLimitPerMinute: null,
      });
      expect(await storage.getApiKeyByHash(key.keyHash)).toEqual({ ...key, isActive: false, rateLimitPerMinute: null });
      expect(await storage.updateApiKey(key.id, {})).toEqual({ ...key, isActive: false, rateLimitPerMinute: null });
    });

    test('updateApiKey of an unknown or malformed id is null', async (storage) => {
      const user = await createdUser(storage);
      const key = await createdKey(storage, user.id);
      expect(await storage.updateApiKey(randomUUID(), { isActive: false })).toBeNull();
      expect(await storage.updateApiKey('not-a-uuid', { isActive: false }, user.id)).toBeNull();
      expect(await storage.getApiKeyByHash(key.keyHash)).toEqual(key);
    });

    test('updateApiKey touches only its key', async (storage) => {
      const user = await createdUser(storage);
      const [a, b] = [await createdKey(storage, user.id), await createdKey(storage, user.id)];
      await storage.updateApiKey(a.id, { isActive: false, rateLimitPerMinute: 10 }, user.id);
      expect(await storage.getApiKeyByHash(b.keyHash)).toEqual(b);
    });

    test('a duplicate key id or hash throws and keeps the stored key', async (storage) => {
      const user = await createdUser(storage);
      const key = await createdKey(storage, user.id);
      const sameId = { ...makeApiKey(user.id, { name: 'clash' }), id: key.id };
      const sameHash = makeApiKey(user.id, { keyHash: key.keyHash, name: 'clash' });
      await expect(storage.createApiKey(sameId)).rejects.toThrow();
      await expect(storage.createApiKey(sameHash)).rejects.toThrow();
      expect(await storage.getApiKeyByHash(key.keyHash)).toEqual(key);
      expect(await storage.getApiKeyByHash(sameId.keyHash)).toBeNull();
      expect(await storage.listApiKeys(user.id)).toEqual([key]);
    });

    test('createApiKey with a cap stores a key while its owner holds fewer live keys, and only then', async (storage) => {
      const [owner, other] = [await createdUser(storage), await createdUser(storage)];
      const cap = { maxLive: 2, now: at(60_000) };
      // Neither a revoked key nor one expired at cap.now is live; other users' keys are not the owner's.
      await createdKey(storage, owner.id, { isActive: false });
      await createdKey(storage, owner.id, { expiresAt: at(60_000) });
      await createdKey(storage, other.id);
      const first = makeApiKey(owner.id, { expiresAt: null });
      const second = makeApiKey(owner.id, { expiresAt: at(60_001) });
      expect(await storage.createApiKey(first, cap)).toBe(true);
      expect(await storage.createApiKey(second, cap)).toBe(true);
      const refused = makeApiKey(owner.id);
      expect(await storage.createApiKey(refused, cap)).toBe(false);
      expect(await storage.getApiKeyByHash(refused.keyHash)).toBeNull();
      expect(await storage.listApiKeys(owner.id)).toHaveLength(4);
      // Later, `second` has expired: a place is free again.
      expect(await storage.createApiKey(refused, { maxLive: 2, now: at(60_001) })).toBe(true);
      expect(await storage.createApiKey(makeApiKey(owner.id))).toBe(true);
    });

    test('concurrent capped creations for one owner never pass the cap together', async (storage) => {
      const owner = await createdUser(storage);
      const cap = { maxLive: 3, now: at(0) };
      const keys = Array.from({ length: 12 }, () => makeApiKey(owner.id));
      const stored = await Promise.all(keys.map((key) => storage.createApiKey(key, cap)));
      expect(stored.filter(Boolean)).toHaveLength(3);
      expect((await storage.listApiKeys(owner.id)).map((key) => key.id).sort()).toEqual(keys.filter((_, i) => stored[i]).map((key) => key.id).sort());
    });

    test('records are copies: changing one, given or returned, changes nothing stored', async (storage) => {
      const user = await createdUser(storage);
      const key = makeApiKey(user.id, { scopes: ['read'] });
      const written = structuredClone(key);
      await storage.createApiKey(key);
      key.scopes.push('admin');
      key.expiresAt!.setTime(0);

      const read = (await storage.getApiKeyByHash(written.keyHash))!;
      read.scopes.push('admin');
      read.createdAt.setTime(0);
      read.expiresAt!.setTime(0);
      const [listed] = await storage.listApiKeys(user.id);
      listed!.scopes.length = 0;
      listed!.isActive = false;
      const updated = (await storage.updateApiKey(written.id, { rateLimitPerMinute: 5 }))!;
      updated.scopes.push('write');

      expect(await storage.getApiKeyByHash(written.keyHash)).toEqual({ ...written, rateLimitPerMinute: 5 });
    });

    test('rollbackTo leaves users and keys alone', async (storage) => {
      const user = await createdUser(storage);
      const key = await createdKey(storage, user.id);
      await writeChain(storage, makeChain({ blocks: 3, txPerBlock: 2 }));
      await storage.rollbackTo(-1n);
      expect(await storage.getCursor()).toBeNull();
      expect(await storage.getUserById(user.id)).toEqual(user);
      expect(await storage.getUserByEmail(user.email)).toEqual(user);
      expect(await storage.getApiKeyByHash(key.keyHash)).toEqual(key);
      expect(await storage.listApiKeys(user.id)).toEqual([key]);
    });
  });
}
