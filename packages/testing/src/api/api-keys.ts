import { createHash, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { generateApiKey } from '@chainlens/core';
import { call, errorEnvelope, signUp, waitFor, type ApiContext } from './context.js';

const HEALTH = '/api/v1/health';

/** API keys: creation, listing, revocation, scopes and authentication with `X-API-Key`. */
export function apiKeyTests(ctx: () => ApiContext): void {
  const post = (path: string, body?: unknown, headers?: Record<string, string>) => call(ctx(), 'POST', path, body, headers);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const withKey = (key: string) => ({ 'x-api-key': key });

  const user = () => signUp(ctx());

  async function createKey(token: string, body: unknown = { name: 'ci' }) {
    return post('/api/v1/auth/api-keys', body, bearer(token));
  }

  it('POST /auth/api-keys answers the secret once; storage keeps only its SHA-256', async () => {
    const { id, token } = await user();
    const { status, body } = await createKey(token, { name: 'deploy bot', description: 'used by CI' });
    expect(status).toBe(200);
    const key = body.result.key as string;
    expect(key).toMatch(/^clk_[A-Za-z0-9_-]{49}$/);
    expect(body.result).toEqual({
      id: expect.any(String),
      key,
      name: 'deploy bot',
      prefix: key.slice(0, 12),
      scopes: ['read'],
      expiresAt: null,
      isActive: true,
      rateLimitPerMinute: null,
      createdAt: expect.any(String),
    });
    const [stored] = await ctx().explorer.storage.listApiKeys(id);
    expect(stored!.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(key.slice(12));
    const listed = await call(ctx(), 'GET', '/api/v1/auth/api-keys', undefined, bearer(token));
    expect(listed.status).toBe(200);
    expect(listed.body.result).toEqual([{ ...body.result, key: undefined }].map(({ key: _secret, ...rest }) => rest));
    expect(JSON.stringify(listed.body)).not.toContain(key.slice(12));
  });

  it('a key authenticates X-API-Key requests; malformed, forged and unknown keys are 401 Invalid API key', async () => {
    const { token } = await user();
    const key = (await createKey(token)).body.result.key as string;
    expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(key))).status).toBe(200);
    const lastChar = key.at(-1) === 'A' ? 'B' : 'A';
    const lookups: string[] = [];
    const storage = ctx().explorer.storage;
    const original = storage.getApiKeyWithOwner.bind(storage);
    storage.getApiKeyWithOwner = (hash) => (lookups.push(hash), original(hash));
    try {
      for (const bad of ['nope', `${key.slice(0, -1)}${lastChar}`, `${key}x`, key.replace('clk_', 'cln_'), `clk_${'A'.repeat(49)}`]) {
        const answer = await call(ctx(), 'GET', HEALTH, undefined, withKey(bad));
        expect(answer.status, bad).toBe(401);
        expect(answer.body).toEqual(errorEnvelope('Invalid API key'));
      }
      expect(lookups).toEqual([]);
      const unknown = await call(ctx(), 'GET', HEALTH, undefined, withKey(generateApiKey().key));
      expect(unknown.body).toEqual(errorEnvelope('Invalid API key'));
      expect(lookups).toHaveLength(1);
    } finally {
      storage.getApiKeyWithOwner = original;
    }
  });

  it('DELETE /auth/api-keys/:id revokes at once; another user can neither see nor revoke the key', async () => {
    const alice = await user();
    const bob = await user();
    const aliceKeys = [(await createKey(alice.token, { name: 'a1' })).body.result, (await createKey(alice.token, { name: 'a2' })).body.result];
    const bobKey = (await createKey(bob.token, { name: 'b1' })).body.result;
    const bobList = await call(ctx(), 'GET', '/api/v1/auth/api-keys', undefined, bearer(bob.token));
    expect(bobList.body.result.map((k: { id: string }) => k.id)).toEqual([bobKey.id]);
    const aliceList = await call(ctx(), 'GET', '/api/v1/auth/api-keys', undefined, bearer(alice.token));
    // Newest first; two keys made in the same millisecond are equally new.
    const listed: { name: string; createdAt: string }[] = aliceList.body.result;
    expect(listed.map((k) => k.name).sort()).toEqual(['a1', 'a2']);
    expect(Date.parse(listed[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(listed[1]!.createdAt));

    for (const target of [...aliceKeys.map((k) => k.id), randomUUID(), 'not-a-uuid']) {
      const answer = await call(ctx(), 'DELETE', `/api/v1/auth/api-keys/${target}`, undefined, bearer(bob.token));
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(errorEnvelope('Error! API key not found'));
    }
    for (const key of aliceKeys) expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(key.key))).status).toBe(200);

    const revoked = await call(ctx(), 'DELETE', `/api/v1/auth/api-keys/${aliceKeys[0]!.id}`, undefined, bearer(alice.token));
    expect(revoked.status).toBe(200);
    expect(revoked.body.result).toMatchObject({ id: aliceKeys[0]!.id, isActive: false });
    expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(aliceKeys[0]!.key))).body).toEqual(errorEnvelope('Invalid API key'));
    expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(aliceKeys[1]!.key))).status).toBe(200);
  });

  it('a key is read from storage once, not on each request, and its revocation still refuses the very next request', async () => {
    const { token } = await user();
    const created = (await createKey(token)).body.result as { id: string; key: string };
    const lookups: string[] = [];
    const storage = ctx().explorer.storage;
    const original = storage.getApiKeyWithOwner.bind(storage);
    storage.getApiKeyWithOwner = (hash) => (lookups.push(hash), original(hash));
    try {
      for (let i = 0; i < 3; i++) expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(created.key))).status).toBe(200);
      expect(lookups).toHaveLength(1);
      expect((await call(ctx(), 'DELETE', `/api/v1/auth/api-keys/${created.id}`, undefined, bearer(token))).status).toBe(200);
      expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(created.key))).body).toEqual(errorEnvelope('Invalid API key'));
      expect(lookups).toHaveLength(2);
    } finally {
      storage.getApiKeyWithOwner = original;
    }
  });

  it("two users with three keys each cannot revoke one another's keys: 404 every time, and nothing changes", async () => {
    const owners = [await user(), await user()];
    const keys: { id: string; key: string; name: string }[][] = [];
    for (const owner of owners) {
      const made: (typeof keys)[number] = [];
      for (const name of ['one', 'two', 'three']) made.push((await createKey(owner.token, { name })).body.result);
      keys.push(made);
    }
    const lists = () => Promise.all(owners.map(async (owner) => (await call(ctx(), 'GET', '/api/v1/auth/api-keys', undefined, bearer(owner.token))).body.result));
    const before = await lists();
    expect(before.map((list) => list.length)).toEqual([3, 3]);

    for (const [i, attacker] of owners.entries()) {
      for (const key of keys[1 - i]!) {
        for (const id of [key.id, key.id.toUpperCase()]) {
          const answer = await call(ctx(), 'DELETE', `/api/v1/auth/api-keys/${id}`, undefined, bearer(attacker.token));
          expect(answer.status, id).toBe(404);
          expect(answer.body).toEqual(errorEnvelope('Error! API key not found'));
        }
      }
    }
    expect(await lists()).toEqual(before);
    for (const key of keys.flat()) expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(key.key))).status, key.name).toBe(200);
  });

  it('a user holds at most 10 live keys: the 11th is 409 Error! API key limit reached, and a revoked key frees its place', async () => {
    const { token } = await user();
    const made = [];
    for (let i = 0; i < 10; i++) {
      const created = await createKey(token, { name: `k${i}` });
      expect(created.status).toBe(200);
      made.push(created.body.result as { id: string; key: string });
    }
    const refused = await createKey(token, { name: 'one too many' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(errorEnvelope('Error! API key limit reached'));
    const listed = await call(ctx(), 'GET', '/api/v1/auth/api-keys', undefined, bearer(token));
    expect(listed.body.result).toHaveLength(10);
    expect((await call(ctx(), 'DELETE', `/api/v1/auth/api-keys/${made[3]!.id}`, undefined, bearer(token))).status).toBe(200);
    expect((await createKey(token, { name: 'in its place' })).status).toBe(200);
    expect((await createKey(token, { name: 'again too many' })).status).toBe(409);
    // Another user's keys are theirs: the cap is per user.
    expect((await createKey((await user()).token)).status).toBe(200);
  });

  it('an expired key answers Invalid API key; an expiry in the past is refused', async () => {
    const { token } = await user();
    const soon = new Date(Date.now() + 1_500).toISOString();
    const created = await createKey(token, { name: 'short-lived', expiresAt: soon });
    expect(created.status).toBe(200);
    expect(created.body.result.expiresAt).toBe(soon);
    expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(created.body.result.key))).status).toBe(200);
    await waitFor(async () => (await call(ctx(), 'GET', HEALTH, undefined, withKey(created.body.result.key))).status === 401, 'the key to expire', 5_000);
    const past = await createKey(token, { name: 'late', expiresAt: new Date(Date.now() - 1_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe('Error! Invalid request: expiresAt: must be in the future');
  });

  it('refuses bad key requests with 400, and keys cannot manage keys', async () => {
    const { token } = await user();
    for (const body of [{}, { name: '' }, { name: 'x', scopes: [] }, { name: 'x', scopes: ['root'] }, { name: 'x', userId: randomUUID() }, { name: 'x', isActive: false }, { name: 'x', expiresAt: 'tomorrow' }]) {
      const answer = await createKey(token, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(/^Error! Invalid request: /);
    }
    const key = (await createKey(token)).body.result.key as string;
    for (const [method, path] of [['POST', '/api/v1/auth/api-keys'], ['GET', '/api/v1/auth/api-keys'], ['POST', '/api/v1/auth/refresh']] as const) {
      const answer = await call(ctx(), method, path, method === 'POST' ? { name: 'x' } : undefined, withKey(key));
      expect(answer.status, path).toBe(401);
      expect(answer.body).toEqual(errorEnvelope('Unauthorized'));
    }
  });

  it('scopes: a user cannot grant more than they hold; a key without read is 403 on read routes', async () => {
    const plain = await user();
    const denied = await createKey(plain.token, { name: 'too much', scopes: ['read', 'admin'] });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(errorEnvelope('Forbidden: insufficient scope'));
    const writeOnly = (await createKey(plain.token, { name: 'writer', scopes: ['write'] })).body.result.key as string;
    const forbidden = await call(ctx(), 'GET', '/api/v1/block/getblock?blockno=latest', undefined, withKey(writeOnly));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(errorEnvelope('Forbidden: insufficient scope'));

    const admin = await user();
    await ctx().explorer.users.setRoles(admin.id, ['admin', 'user']);
    const adminKey = await createKey(admin.token, { name: 'ops', scopes: ['admin', 'read', 'write', 'read'] });
    expect(adminKey.status).toBe(200);
    expect(adminKey.body.result.scopes).toEqual(['admin', 'read', 'write']);
  });

  it("a deactivated user's keys stop working", async () => {
    const { id, token } = await user();
    const key = (await createKey(token)).body.result.key as string;
    await ctx().explorer.users.setActive(id, false);
    expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(key))).body).toEqual(errorEnvelope('Invalid API key'));
  });
}
