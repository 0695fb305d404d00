import { createHash, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { pino, type Logger } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { createExplorer, type ExplorerConfig, generateApiKey } from '@chainlens/core';
import { call, errorEnvelope, type ApiContext } from './context.js';

const PASSWORD = 'a long enough passphrase';
const JWT_SECRET = 'an-own-explorer-secret-long-enough-for-hs256';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A fresh email, so tests sharing one explorer never collide. */
const freshEmail = () => `user-${randomUUID()}@example.com`;

/** Registration, login, refresh, and how every route treats credentials. */
export function authTests(ctx: () => ApiContext): void {
  const post = (path: string, body?: unknown, headers?: Record<string, string>) => call(ctx(), 'POST', path, body, headers);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /**
   * An explorer of the test's own, served like the suite's, with `JWT_SECRET`, a clock the test
   * moves and `config` on top; its context sends requests to it. Closed after the test.
   */
  async function ownExplorer(config: Partial<ExplorerConfig> = {}): Promise<{ api: ApiContext; clock: { now: number } }> {
    const clock = { now: Date.now() };
    const explorer = await createExplorer({
      rpcUrl: ctx().chain.rpcUrl,
      storage: await ctx().options.storage(),
      logger: pino({ level: 'silent' }),
      clock: () => clock.now,
      auth: { jwtSecret: JWT_SECRET },
      ...config,
    });
    const served = await ctx().options.serve(explorer);
    closers.push(async () => {
      await served.close();
      await explorer.close();
    });
    return { api: { ...ctx(), explorer, url: served.url }, clock };
  }

  async function registerAndLogin(): Promise<{ id: string; email: string; token: string }> {
    const email = freshEmail();
    const registered = await post('/api/v1/auth/register', { email, password: PASSWORD, name: 'Ada' });
    expect(registered.status).toBe(200);
    const login = await post('/api/v1/auth/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    return { id: registered.body.result.id, email, token: login.body.result.access_token };
  }

  it('POST /auth/register creates a user with the role user and never answers the password', async () => {
    const email = freshEmail();
    const { status, body } = await post('/api/v1/auth/register', { email: `  ${email.toUpperCase()} `, password: PASSWORD, name: ' Ada Lovelace ' });
    expect(status).toBe(200);
    expect(body.message).toBe('OK');
    expect(body.result).toEqual({ id: expect.stringMatching(UUID), email, name: 'Ada Lovelace', roles: ['user'], isActive: true, createdAt: expect.any(String) });
    expect(new Date(body.result.createdAt).toISOString()).toBe(body.result.createdAt);
    expect(JSON.stringify(body)).not.toMatch(/passphrase|argon2|password/i);
    const stored = await ctx().explorer.storage.getUserByEmail(email);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('POST /auth/register answers 409 for an email already registered, in any case', async () => {
    const email = freshEmail();
    expect((await post('/api/v1/auth/register', { email, password: PASSWORD, name: 'First' })).status).toBe(200);
    const again = await post('/api/v1/auth/register', { email: email.toUpperCase(), password: `${PASSWORD}!`, name: 'Second' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorEnvelope('Error! Email already registered'));
    expect((await ctx().explorer.storage.getUserByEmail(email))?.name).toBe('First');
  });

  it('POST /auth/register refuses bad input with 400 and creates nothing', async () => {
    const cases: [string, unknown][] = [
      ['an invalid email', { email: 'not-an-email', password: PASSWORD, name: 'A' }],
      ['a 14-character password', { email: freshEmail(), password: 'x'.repeat(14), name: 'A' }],
      ['a 257-character password', { email: freshEmail(), password: 'x'.repeat(257), name: 'A' }],
      ['an empty name', { email: freshEmail(), password: PASSWORD, name: '   ' }],
      ['a 101-character name', { email: freshEmail(), password: PASSWORD, name: 'n'.repeat(101) }],
      ['no name', { email: freshEmail(), password: PASSWORD }],
      ['a NUL character in the name', { email: freshEmail(), password: PASSWORD, name: 'A\u0000B' }],
      ['a number as password', { email: freshEmail(), password: 123456789012345678, name: 'A' }],
      ['roles set by the caller', { email: freshEmail(), password: PASSWORD, name: 'A', roles: ['admin'] }],
      ['isActive set by the caller', { email: freshEmail(), password: PASSWORD, name: 'A', isActive: false }],
      ['an id set by the caller', { email: freshEmail(), password: PASSWORD, name: 'A', id: randomUUID() }],
      ['an array body', [1, 2]],
    ];
    for (const [what, body] of cases) {
      const answer = await post('/api/v1/auth/register', body);
      expect(answer.status, what).toBe(400);
      expect(answer.body.message, what).toMatch(/^Error! Invalid request: /);
      expect(answer.body.result, what).toBeNull();
      const email = (body as { email?: string }).email;
      if (typeof email === 'string' && email.includes('@')) expect(await ctx().explorer.storage.getUserByEmail(email), what).toBeNull();
    }
  });

  it('POST /auth/register keeps SQL-like and unicode input exactly as sent', async () => {
    const email = freshEmail();
    const name = `Robert'); DROP TABLE users;-- 名前 🚀 "quoted" \\x00`;
    const { status, body } = await post('/api/v1/auth/register', { email, password: `pässwörd ${'🔑'.repeat(8)}`, name });
    expect(status).toBe(200);
    expect(body.result.name).toBe(name);
    expect((await post('/api/v1/auth/login', { email, password: `pässwörd ${'🔑'.repeat(8)}` })).status).toBe(200);
  });

  it('POST /auth/login answers a token, and one message for a wrong password or an unknown email', async () => {
    const { email } = await registerAndLogin();
    const login = await post('/api/v1/auth/login', { email: email.toUpperCase(), password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.result).toEqual({ access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), expires_in: 604_800 });
    for (const body of [{ email, password: `${PASSWORD}x` }, { email: freshEmail(), password: PASSWORD }]) {
      const answer = await post('/api/v1/auth/login', body);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(errorEnvelope('Error! Invalid email or password'));
    }
    expect((await post('/api/v1/auth/login', { email })).status).toBe(400);
    expect((await post('/api/v1/auth/login', { email: 'a\u0000@example.com', password: PASSWORD })).status).toBe(400);
  });

  it('POST /auth/refresh answers a fresh token for a valid one, and 401 without', async () => {
    const { token } = await registerAndLogin();
    const refreshed = await post('/api/v1/auth/refresh', undefined, bearer(token));
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.result.expires_in).toBe(604_800);
    expect((await post('/api/v1/auth/refresh', undefined, bearer(refreshed.body.result.access_token))).status).toBe(200);
    const anonymous = await post('/api/v1/auth/refresh');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(errorEnvelope('Unauthorized'));
  });

  it('a bad credential is 401 on every route, public ones included; a good one is served', async () => {
    const { token } = await registerAndLogin();
    const [header, payload] = token.split('.');
    const bad = [
      { authorization: 'Bearer not-a-jwt' },
      { authorization: `Bearer ${header}.${payload}.AAAA` },
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      { authorization: 'Bearer' },
    ];
    for (const path of ['/api/v1/health', '/api/v1/block/getblock?blockno=latest', '/api/v1/account/txlist?address=0x0000000000000000000000000000000000000000']) {
      for (const headers of bad) {
        const answer = await call(ctx(), 'GET', path, undefined, headers);
        expect(answer.status, `${path} ${headers.authorization}`).toBe(401);
        expect(answer.body).toEqual(errorEnvelope('Unauthorized'));
      }
      expect((await call(ctx(), 'GET', path, undefined, bearer(token))).status).toBe(200);
    }
  });

  it('an expired JWT is 401 Token expired on a public route, whether it aged there or was signed so', async () => {
    const { api, clock } = await ownExplorer({ auth: { jwtSecret: JWT_SECRET, tokenLifetimeSeconds: 60 } });
    const email = freshEmail();
    const registered = await call(api, 'POST', '/api/v1/auth/register', { email, password: PASSWORD, name: 'Ada' });
    const now = Math.floor(clock.now / 1000);
    const signed = (exp: number) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(registered.body.result.id)
        .setIssuer('chainlens')
        .setAudience('chainlens-api')
        .setIssuedAt(now - 120)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(JWT_SECRET));
    // The same claims and secret with a future exp are served: only the expiry differs.
    expect((await call(api, 'GET', '/api/v1/health', undefined, bearer(await signed(now + 60)))).status).toBe(200);
    const handMade = await call(api, 'GET', '/api/v1/health', undefined, bearer(await signed(now - 1)));
    expect(handMade.status).toBe(401);
    expect(handMade.body).toEqual(errorEnvelope('Token expired'));

    const token = (await call(api, 'POST', '/api/v1/auth/login', { email, password: PASSWORD })).body.result.access_token as string;
    expect((await call(api, 'GET', '/api/v1/health', undefined, bearer(token))).status).toBe(200);
    clock.now += 60_000;
    const aged = await call(api, 'GET', '/api/v1/health', undefined, bearer(token));
    expect(aged.status).toBe(401);
    expect(aged.body).toEqual(errorEnvelope('Token expired'));
  });

  it('never logs a password, an access token, an API key or its hash, not even with a request that fails', async () => {
    const lines: string[] = [];
    const logger: Logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    const { api } = await ownExplorer({ logger });
    const email = freshEmail();
    const wrongPassword = 'not the passphrase at all';
    expect((await call(api, 'POST', '/api/v1/auth/register', { email, password: PASSWORD, name: 'Ada' })).status).toBe(200);
    const login = await call(api, 'POST', '/api/v1/auth/login', { email, password: PASSWORD });
    expect((await call(api, 'POST', '/api/v1/auth/login', { email, password: wrongPassword })).status).toBe(401);
    const token = login.body.result.access_token as string;
    const refreshed = (await call(api, 'POST', '/api/v1/auth/refresh', undefined, bearer(token))).body.result.access_token as string;
    const key = (await call(api, 'POST', '/api/v1/auth/api-keys', { name: 'ci' }, bearer(refreshed))).body.result.key as string;
    expect((await call(api, 'GET', '/api/v1/health', undefined, { 'x-api-key': key })).status).toBe(200);
    const forged = generateApiKey().key;
    for (const bad of [forged, `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`]) {
      expect((await call(api, 'GET', '/api/v1/health', undefined, { 'x-api-key': bad })).status).toBe(401);
    }
    // A login that storage fails is logged as an unexpected error: the one path that writes here.
    const storage = api.explorer.storage;
    const lookup = storage.getUserByEmail.bind(storage);
    storage.getUserByEmail = () => Promise.reject(new Error('storage unavailable'));
    try {
      expect((await call(api, 'POST', '/api/v1/auth/login', { email, password: PASSWORD })).status).toBe(500);
    } finally {
      storage.getUserByEmail = lookup;
    }

    const output = lines.join('');
    expect(output).toContain('unexpected error while answering a request');
    // Every request above was logged (its route, status and id), and none of them leaked.
    expect(output.match(/"msg":"request answered"/g)?.length).toBeGreaterThanOrEqual(8);
    const passwordHash = (await storage.getUserByEmail(email))!.passwordHash;
    const secrets = {
      password: PASSWORD,
      wrongPassword,
      token,
      tokenSignature: token.split('.')[2]!,
      refreshed,
      key,
      keySecretPart: key.slice(12),
      keyHash: createHash('sha256').update(key).digest('hex'),
      forged,
      passwordHash,
      jwtSecret: JWT_SECRET,
    };
    for (const [what, secret] of Object.entries(secrets)) expect(output.includes(secret), what).toBe(false);
  });

  it("a deactivated user's tokens stop working at once and login is refused", async () => {
    const { id, email, token } = await registerAndLogin();
    expect((await ctx().explorer.users.setActive(id, false))?.isActive).toBe(false);
    expect((await post('/api/v1/auth/refresh', undefined, bearer(token))).body).toEqual(errorEnvelope('Unauthorized'));
    expect((await call(ctx(), 'GET', '/api/v1/health', undefined, bearer(token))).status).toBe(401);
    expect((await post('/api/v1/auth/login', { email, password: PASSWORD })).body).toEqual(errorEnvelope('Error! Invalid email or password'));
    await ctx().explorer.users.setActive(id, true);
    expect((await post('/api/v1/auth/refresh', undefined, bearer(token))).status).toBe(200);
  });

  it('a token kept verified stops at once when its user is deactivated, follows a change of roles, and ends at its expiry', async () => {
    const { api, clock } = await ownExplorer({
      auth: { jwtSecret: JWT_SECRET, tokenLifetimeSeconds: 60 },
      rateLimits: { authenticated: { perMinute: 100, perDay: 10_000 }, premium: { perMinute: 500, perDay: 10_000 } },
    });
    const email = freshEmail();
    const { id } = (await call(api, 'POST', '/api/v1/auth/register', { email, password: PASSWORD, name: 'Ada' })).body.result;
    const token = (await call(api, 'POST', '/api/v1/auth/login', { email, password: PASSWORD })).body.result.access_token as string;
    const health = () => call(api, 'GET', '/api/v1/health', undefined, bearer(token));
    // The first request verifies the token and keeps it; each check below follows a kept one.
    expect((await health()).headers.get('x-ratelimit-limit')).toBe('100');
    expect((await health()).status).toBe(200);
    await api.explorer.users.setActive(id, false);
    expect((await health()).body).toEqual(errorEnvelope('Unauthorized'));
    await api.explorer.users.setActive(id, true);
    expect((await health()).headers.get('x-ratelimit-limit')).toBe('100');
    await api.explorer.users.setRoles(id, ['premium', 'user']);
    expect((await health()).headers.get('x-ratelimit-limit')).toBe('500');
    clock.now += 60_000;
    expect((await health()).body).toEqual(errorEnvelope('Token expired'));
  });

  it('explorer.users.setRoles grants premium and admin, stored sorted and distinct', async () => {
    const { id } = await registerAndLogin();
    expect((await ctx().explorer.users.setRoles(id, ['user', 'premium', 'admin', 'premium']))?.roles).toEqual(['admin', 'premium', 'user']);
    expect((await ctx().explorer.storage.getUserById(id))?.roles).toEqual(['admin', 'premium', 'user']);
    expect(await ctx().explorer.users.setRoles(randomUUID(), ['admin'])).toBeNull();
  });
}
