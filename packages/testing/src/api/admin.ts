import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { call, errorEnvelope, signUp, type ApiContext } from './context.js';

const HEALTH = '/api/v1/health';
const FORBIDDEN = errorEnvelope('Forbidden: insufficient scope');

/** `/admin/*`: roles, the active flag and per-key limits, for admins only. */
export function adminTests(ctx: () => ApiContext): void {
  const post = (path: string, body?: unknown, headers?: Record<string, string>) => call(ctx(), 'POST', path, body, headers);
  const patch = (path: string, body: unknown, headers: Record<string, string>) => call(ctx(), 'PATCH', path, body, headers);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const withKey = (key: string) => ({ 'x-api-key': key });

  const user = () => signUp(ctx());
  const admin = () => signUp(ctx(), ['admin', 'user']);

  async function key(token: string, scopes: string[]): Promise<{ id: string; key: string }> {
    const { body } = await post('/api/v1/auth/api-keys', { name: 'k', scopes }, bearer(token));
    return body.result;
  }

  it('an admin makes a user premium: the higher tier applies on their next request', async () => {
    const boss = await admin();
    const member = await user();
    expect((await call(ctx(), 'GET', HEALTH, undefined, bearer(member.token))).headers.get('x-ratelimit-limit')).not.toBe('10000');
    const answer = await patch(`/api/v1/admin/users/${member.id}`, { roles: ['premium', 'user'] }, bearer(boss.token));
    expect(answer.status).toBe(200);
    expect(answer.body.result).toEqual({ id: member.id, email: member.email, name: 'Someone', roles: ['premium', 'user'], isActive: true, createdAt: expect.any(String) });
    expect((await call(ctx(), 'GET', HEALTH, undefined, bearer(member.token))).headers.get('x-ratelimit-limit')).toBe('10000');
  });

  it('a key verified lately follows its owner at once: a new tier applies on its next request, a deactivation refuses it, a limit of its own counts', async () => {
    const boss = await admin();
    const member = await user();
    const memberKey = await key(member.token, ['read']);
    const limitOfKey = async () => (await call(ctx(), 'GET', HEALTH, undefined, withKey(memberKey.key))).headers.get('x-ratelimit-limit');
    // Twice: the second is answered from what the first verified.
    const tier = await limitOfKey();
    expect(await limitOfKey()).toBe(tier);
    expect(tier).not.toBe('10000');
    expect((await patch(`/api/v1/admin/users/${member.id}`, { roles: ['premium', 'user'] }, bearer(boss.token))).status).toBe(200);
    expect(await limitOfKey()).toBe('10000');
    expect((await patch(`/api/v1/admin/api-keys/${memberKey.id}`, { rateLimitPerMinute: 7 }, bearer(boss.token))).status).toBe(200);
    expect(await limitOfKey()).toBe('7');
    await ctx().explorer.users.setActive(member.id, false);
    expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(memberKey.key))).body).toEqual(errorEnvelope('Invalid API key'));
  });

  it('an admin finds a user by email (never the password hash) and deactivates them', async () => {
    const boss = await admin();
    const member = await user();
    const memberKey = await key(member.token, ['read']);
    const found = await call(ctx(), 'GET', `/api/v1/admin/users?email=${encodeURIComponent(member.email.toUpperCase())}`, undefined, bearer(boss.token));
    expect(found.status).toBe(200);
    expect(found.body.result.id).toBe(member.id);
    expect(JSON.stringify(found.body)).not.toMatch(/argon2|password/i);
    const missing = await call(ctx(), 'GET', '/api/v1/admin/users?email=nobody@example.com', undefined, bearer(boss.token));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(errorEnvelope('Error! User not found'));

    const off = await patch(`/api/v1/admin/users/${member.id}`, { isActive: false }, bearer(boss.token));
    expect(off.body.result).toMatchObject({ id: member.id, isActive: false, roles: ['user'] });
    expect((await call(ctx(), 'GET', HEALTH, undefined, bearer(member.token))).body).toEqual(errorEnvelope('Unauthorized'));
    expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(memberKey.key))).body).toEqual(errorEnvelope('Invalid API key'));
  });

  it("a key with the admin scope sets another user's key limit, which becomes that key's X-RateLimit-Limit", async () => {
    const boss = await admin();
    const bossKey = await key(boss.token, ['admin']);
    const member = await user();
    const memberKey = await key(member.token, ['read']);
    const set = await patch(`/api/v1/admin/api-keys/${memberKey.id}`, { rateLimitPerMinute: 42 }, withKey(bossKey.key));
    expect(set.status).toBe(200);
    expect(set.body.result).toMatchObject({ id: memberKey.id, rateLimitPerMinute: 42 });
    expect(JSON.stringify(set.body)).not.toContain(memberKey.key.slice(12));
    expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(memberKey.key))).headers.get('x-ratelimit-limit')).toBe('42');
    const cleared = await patch(`/api/v1/admin/api-keys/${memberKey.id}`, { rateLimitPerMinute: null }, withKey(bossKey.key));
    expect(cleared.body.result.rateLimitPerMinute).toBeNull();
    expect((await call(ctx(), 'GET', HEALTH, undefined, withKey(memberKey.key))).headers.get('x-ratelimit-limit')).not.toBe('42');
  });

  it('non-admins get 403 and anonymous callers 401; an admin key loses the scope with its owner’s role', async () => {
    const member = await user();
    const victim = await user();
    const victimKey = await key(victim.token, ['read']);
    const boss = await admin();
    const bossKey = await key(boss.token, ['admin', 'read']);
    const bossReadKey = await key(boss.token, ['read', 'write']);
    const attempts = [
      ['PATCH', `/api/v1/admin/users/${member.id}`, { roles: ['admin', 'user'] }],
      ['PATCH', `/api/v1/admin/api-keys/${victimKey.id}`, { rateLimitPerMinute: 1 }],
      ['GET', `/api/v1/admin/users?email=${encodeURIComponent(victim.email)}`, undefined],
    ] as const;
    for (const [method, path, body] of attempts) {
      expect((await call(ctx(), method, path, body, bearer(member.token))).body, path).toEqual(FORBIDDEN);
      expect((await call(ctx(), method, path, body, withKey(bossReadKey.key))).body, path).toEqual(FORBIDDEN);
      const anonymous = await call(ctx(), method, path, body);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.body).toEqual(errorEnvelope('Unauthorized'));
    }
    expect((await ctx().explorer.storage.getUserById(member.id))!.roles).toEqual(['user']);
    expect((await ctx().explorer.storage.listApiKeys(victim.id))[0]!.rateLimitPerMinute).toBeNull();

    await ctx().explorer.users.setRoles(boss.id, ['user']);
    expect((await patch(`/api/v1/admin/users/${member.id}`, { roles: ['admin', 'user'] }, withKey(bossKey.key))).body).toEqual(FORBIDDEN);
    expect((await ctx().explorer.storage.getUserById(member.id))!.roles).toEqual(['user']);
  });

  it('refuses unknown ids with 404 and bad bodies with 400, changing nothing', async () => {
    const boss = await admin();
    const member = await user();
    for (const target of [randomUUID(), 'not-a-uuid']) {
      const userAnswer = await patch(`/api/v1/admin/users/${target}`, { roles: ['user'] }, bearer(boss.token));
      expect(userAnswer.status).toBe(404);
      expect(userAnswer.body).toEqual(errorEnvelope('Error! User not found'));
      const keyAnswer = await patch(`/api/v1/admin/api-keys/${target}`, { rateLimitPerMinute: 5 }, bearer(boss.token));
      expect(keyAnswer.status).toBe(404);
      expect(keyAnswer.body).toEqual(errorEnvelope('Error! API key not found'));
    }
    const badUserBodies = [{}, { roles: ['root', 'user'] }, { roles: ['premium'] }, { roles: 'admin' }, { isActive: 'no' }, { email: 'x@example.com' }, { roles: ['user'], passwordHash: 'x' }];
    for (const body of badUserBodies) {
      const answer = await patch(`/api/v1/admin/users/${member.id}`, body, bearer(boss.token));
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(/^Error! Invalid request: /);
    }
    const memberKey = await key(member.token, ['read']);
    for (const body of [{}, { rateLimitPerMinute: 0 }, { rateLimitPerMinute: 1.5 }, { rateLimitPerMinute: '10' }, { rateLimitPerMinute: 10, isActive: false }]) {
      const answer = await patch(`/api/v1/admin/api-keys/${memberKey.id}`, body, bearer(boss.token));
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect(await ctx().explorer.storage.getUserById(member.id)).toMatchObject({ roles: ['user'], isActive: true, email: member.email });
    expect((await ctx().explorer.storage.listApiKeys(member.id))[0]).toMatchObject({ rateLimitPerMinute: null, isActive: true });
  });
}
