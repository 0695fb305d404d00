import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { makeUser } from './account-fixtures.js';
import { type StorageFactory, storageTest } from './harness.js';

/** createUser, getUserById, getUserByEmail and updateUser. */
export function userTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('users', () => {
    test('a created user reads back by id and by email as written', async (storage) => {
      const user = makeUser();
      expect(await storage.createUser(user)).toBe(true);
      expect(await storage.getUserById(user.id)).toEqual(user);
      expect(await storage.getUserByEmail(user.email)).toEqual(user);
    });

    test('roles keep their order, and an empty list round-trips', async (storage) => {
      const ordered = makeUser({ roles: ['admin', 'premium', 'user'] });
      const none = makeUser({ roles: [], isActive: false });
      await storage.createUser(ordered);
      await storage.createUser(none);
      expect(await storage.getUserById(ordered.id)).toEqual(ordered);
      expect(await storage.getUserById(none.id)).toEqual(none);
    });

    test('an unknown id or email is null', async (storage) => {
      expect(await storage.getUserById(randomUUID())).toBeNull();
      expect(await storage.getUserByEmail('nobody@example.com')).toBeNull();
      const user = makeUser();
      await storage.createUser(user);
      expect(await storage.getUserById(randomUUID())).toBeNull();
      expect(await storage.getUserByEmail('nobody@example.com')).toBeNull();
    });

    test('lookups match exactly: another case or a malformed id is a miss, not an error', async (storage) => {
      const user = makeUser();
      await storage.createUser(user);
      expect(await storage.getUserById(user.id.toUpperCase())).toBeNull();
      expect(await storage.getUserById('not-a-uuid')).toBeNull();
      expect(await storage.getUserByEmail(user.email.toUpperCase())).toBeNull();
      expect(await storage.getUserByEmail(`${user.email}\u0000`)).toBeNull();
      expect(await storage.getUserByEmail('\ud800')).toBeNull();
    });

    test('a second user with a taken email is refused and the first is unchanged', async (storage) => {
      const first = makeUser();
      const second = makeUser({ email: first.email, name: 'Someone Else', roles: ['admin'] });
      await storage.createUser(first);
      expect(await storage.createUser(second)).toBe(false);
      expect(await storage.getUserByEmail(first.email)).toEqual(first);
      expect(await storage.getUserById(first.id)).toEqual(first);
      expect(await storage.getUserById(second.id)).toBeNull();
    });

    test('of two concurrent creates with one email exactly one succeeds', async (storage) => {
      const a = makeUser();
      const b = makeUser({ email: a.email });
      const results = await Promise.all([storage.createUser(a), storage.createUser(b)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? a : b;
      expect(await storage.getUserByEmail(a.email)).toEqual(winner);
      expect(await storage.getUserById((winner === a ? b : a).id)).toBeNull();
    });

    test('updateUser changes roles, resolves the updated user and persists it', async (storage) => {
      const user = makeUser({ roles: ['user'] });
      await storage.createUser(user);
      const expected = { ...user, roles: ['admin', 'user'] };
      expect(await storage.updateUser(user.id, { roles: ['admin', 'user'] })).toEqual(expected);
      expect(await storage.getUserById(user.id)).toEqual(expected);
      expect(await storage.getUserByEmail(user.email)).toEqual(expected);
    });

    test('updateUser changes isActive and leaves absent fields as they were', async (storage) => {
      const user = makeUser();
      await storage.createUser(user);
      expect(await storage.updateUser(user.id, { isActive: false })).toEqual({ ...user, isActive: false });
      expect(await storage.updateUser(user.id, { roles: ['user'] })).toEqual({ ...user, isActive: false, roles: ['user'] });
      expect(await storage.updateUser(user.id, {})).toEqual({ ...user, isActive: false, roles: ['user'] });
      expect(await storage.getUserById(user.id)).toEqual({ ...user, isActive: false, roles: ['user'] });
    });

    test('updateUser of an unknown or malformed id is null and writes nothing', async (storage) => {
      const user = makeUser();
      await storage.createUser(user);
      expect(await storage.updateUser(randomUUID(), { roles: ['admin'] })).toBeNull();
      expect(await storage.updateUser('not-a-uuid', { isActive: false })).toBeNull();
      expect(await storage.getUserById(user.id)).toEqual(user);
    });

    test('updateUser touches only its user', async (storage) => {
      const [a, b] = [makeUser(), makeUser()];
      await storage.createUser(a);
      await storage.createUser(b);
      await storage.updateUser(a.id, { roles: ['admin'], isActive: false });
      expect(await storage.getUserById(b.id)).toEqual(b);
    });

    test('records are copies: changing one, given or returned, changes nothing stored', async (storage) => {
      const user = makeUser({ roles: ['user'] });
      const written = structuredClone(user);
      await storage.createUser(user);
      user.roles.push('admin');
      user.createdAt.setTime(0);

      const read = (await storage.getUserById(written.id))!;
      read.roles.push('admin');
      read.createdAt.setTime(0);
      read.isActive = false;
      const byEmail = (await storage.getUserByEmail(written.email))!;
      byEmail.roles.length = 0;
      const updated = (await storage.updateUser(written.id, { roles: ['premium', 'user'] }))!;
      updated.roles.reverse();

      expect(await storage.getUserById(written.id)).toEqual({ ...written, roles: ['premium', 'user'] });
    });

    test('updateUser does not keep the array it was given', async (storage) => {
      const user = makeUser();
      await storage.createUser(user);
      const roles = ['premium', 'user'];
      await storage.updateUser(user.id, { roles });
      roles.push('admin');
      expect((await storage.getUserById(user.id))!.roles).toEqual(['premium', 'user']);
    });
  });
}
