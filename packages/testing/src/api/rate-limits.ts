import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { createExplorer, DAY_MS, type Explorer, type ExplorerConfig, MINUTE_MS } from '@chainlens/core';
import { errorEnvelope, type ApiContext } from './context.js';

const PASSPHRASE = 'a long enough passphrase';

/** A served explorer with its own limits and a clock the test moves. */
interface Limited {
  explorer: Explorer;
  clock: { now: number };
  request(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
}

/** Tiers and throttles through the adapter, with an injected clock: exact counts and window edges. */
export function rateLimitTests(ctx: () => ApiContext): void {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** Starts at `start`: by default 30 s into a minute, far from a day's end. */
  async function limited(rateLimits: ExplorerConfig['rateLimits'], start = 1_800_000_030_000): Promise<Limited> {
    const clock = { now: start };
    const explorer = await createExplorer({
      rpcUrl: ctx().chain.rpcUrl,
      storage: await ctx().options.storage(),
      logger: pino({ level: 'silent' }),
      clock: () => clock.now,
      rateLimits,
    });
    const served = await ctx().options.serve(explorer);
    closers.push(async () => {
      await served.close();
      await explorer.close();
    });
    return {
      explorer,
      clock,
      request: (path, init = {}) =>
        fetch(`${served.url}${path}`, {
          method: init.method ?? 'GET',
          headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        }),
    };
  }

  const headersOf = (response: Response) => ({
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: response.headers.get('x-ratelimit-reset'),
    retryAfter: response.headers.get('retry-after'),
  });

  it('anonymous: exactly 100 a minute with counting-down headers, then 429 until the next window', async () => {
    const api = await limited({ anonymous: { perMinute: 100, perDay: 10_000 } });
    const minuteEnd = Math.ceil(api.clock.now / MINUTE_MS) * MINUTE_MS;
    for (let i = 1; i <= 100; i++) {
      const response = await api.request('/api/v1/nope');
      expect(response.status).toBe(404);
      expect(headersOf(response)).toEqual({ limit: '100', remaining: String(100 - i), reset: String(minuteEnd / 1000), retryAfter: null });
    }
    const refused = await api.request('/api/v1/nope');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(errorEnvelope('Max rate limit reached'));
    expect(headersOf(refused)).toEqual({ limit: '100', remaining: '0', reset: String(minuteEnd / 1000), retryAfter: '30' });

    api.clock.now = minuteEnd - 1; // the last millisecond of the window still counts in it
    expect((await api.request('/api/v1/nope')).status).toBe(429);
    api.clock.now = minuteEnd; // the next window starts from zero
    const next = await api.request('/api/v1/nope');
    expect(next.status).toBe(404);
    expect(headersOf(next)).toMatchObject({ remaining: '99', reset: String(minuteEnd / 1000 + 60) });
  });

  it('the day allowance binds across minutes, resetting at the end of the UTC day', async () => {
    const api = await limited({ anonymous: { perMinute: 100, perDay: 5 } });
    const dayEnd = Math.ceil(api.clock.now / DAY_MS) * DAY_MS;
    for (let i = 0; i < 5; i++) expect((await api.request('/api/v1/nope')).status).toBe(404);
    api.clock.now += 2 * MINUTE_MS;
    const refused = await api.request('/api/v1/nope');
    expect(refused.status).toBe(429);
    expect(headersOf(refused)).toMatchObject({ remaining: '0', reset: String(dayEnd / 1000), retryAfter: String((dayEnd - api.clock.now) / 1000) });
    api.clock.now = dayEnd;
    expect((await api.request('/api/v1/nope')).status).toBe(404);
  });

  /** Registers a user on `api` and logs in: the id and bearer headers, and `keys` fresh API keys (each creation one request of the account). */
  async function keyHolder(api: Limited, keys: number) {
    const email = `limits-${randomUUID()}@example.com`;
    const registered = await api.request('/api/v1/auth/register', { method: 'POST', body: { email, password: PASSPHRASE, name: 'L' } });
    const id = ((await registered.json()) as { result: { id: string } }).result.id;
    const login = await api.request('/api/v1/auth/login', { method: 'POST', body: { email, password: PASSPHRASE } });
    expect(login.status).toBe(200);
    const jwt = { authorization: `Bearer ${((await login.json()) as { result: { access_token: string } }).result.access_token}` };
    const created: { id: string; headers: Record<string, string> }[] = [];
    for (let i = 0; i < keys; i++) {
      const answer = await api.request('/api/v1/auth/api-keys', { method: 'POST', body: { name: `k${i}` }, headers: jwt });
      const { id: keyId, key } = ((await answer.json()) as { result: { id: string; key: string } }).result;
      created.push({ id: keyId, headers: { 'x-api-key': key } });
    }
    return { id, jwt, keys: created };
  }

  it('every key and token of one account spends one allowance: three keys get the tier once, not three times', async () => {
    const api = await limited({ authenticated: { perMinute: 6, perDay: 100 } });
    const { jwt, keys } = await keyHolder(api, 3);
    api.clock.now += MINUTE_MS; // a fresh minute, without the key creations in it
    const remaining: (string | null)[] = [];
    for (const key of [...keys, ...keys]) {
      const answer = await api.request('/api/v1/nope', { headers: key.headers });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('6');
      remaining.push(answer.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    for (const headers of [...keys.map((key) => key.headers), jwt]) {
      const refused = await api.request('/api/v1/nope', { headers });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual(errorEnvelope('Max rate limit reached'));
    }
  });

  it('the day allowance is the account’s too, whichever key spends it', async () => {
    const api = await limited({ authenticated: { perMinute: 100, perDay: 6 } });
    const { keys } = await keyHolder(api, 2);
    api.clock.now += 2 * MINUTE_MS;
    for (let i = 0; i < 4; i++) expect((await api.request('/api/v1/nope', { headers: keys[i % 2]!.headers })).status).toBe(404);
    const refused = await api.request('/api/v1/nope', { headers: keys[0]!.headers });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil(api.clock.now / DAY_MS) * (DAY_MS / 1000)));
  });

  it('a key’s own figure below the tier caps that key alone; refused calls of it spend nothing of the account', async () => {
    const api = await limited({ authenticated: { perMinute: 6, perDay: 100 } });
    const { keys } = await keyHolder(api, 2);
    const [capped, other] = keys as [(typeof keys)[number], (typeof keys)[number]];
    await api.explorer.services.apiKeys.setRateLimit(capped.id, 2);
    api.clock.now += MINUTE_MS;
    expect(headersOf(await api.request('/api/v1/nope', { headers: capped.headers }))).toMatchObject({ limit: '2', remaining: '1' });
    expect(headersOf(await api.request('/api/v1/nope', { headers: capped.headers }))).toMatchObject({ limit: '2', remaining: '0' });
    for (let i = 0; i < 5; i++) {
      const refused = await api.request('/api/v1/nope', { headers: capped.headers });
      expect(refused.status).toBe(429);
      expect(headersOf(refused)).toMatchObject({ limit: '2', remaining: '0', retryAfter: '30' });
    }
    // The account spent 2 of its 6: the other key has 4 left, however often the capped one was refused.
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await api.request('/api/v1/nope', { headers: other.headers }));
    expect(answers.map((answer) => [answer.status, answer.headers.get('x-ratelimit-remaining')])).toEqual([
      [404, '3'],
      [404, '2'],
      [404, '1'],
      [404, '0'],
      [429, '0'],
    ]);
  });

  it('an admin’s figure above the tier is that key’s grant: it runs to its figure, the account’s other credentials stop at the tier', async () => {
    const api = await limited({ authenticated: { perMinute: 3, perDay: 100 } });
    const { jwt, keys } = await keyHolder(api, 2);
    const [granted, plain] = keys as [(typeof keys)[number], (typeof keys)[number]];
    await api.explorer.services.apiKeys.setRateLimit(granted.id, 5);
    api.clock.now += MINUTE_MS;
    for (let i = 1; i <= 5; i++) {
      const answer = await api.request('/api/v1/nope', { headers: granted.headers });
      expect(answer.status).toBe(404);
      expect(headersOf(answer)).toMatchObject({ limit: '5', remaining: String(5 - i) });
    }
    // 5 spent, past the tier's 3: the account's other credentials are refused, and the key at its figure.
    for (const headers of [plain.headers, jwt, granted.headers]) expect((await api.request('/api/v1/nope', { headers })).status).toBe(429);
  });

  it('the premium role raises the whole account’s allowance', async () => {
    const api = await limited({ authenticated: { perMinute: 3, perDay: 100 }, premium: { perMinute: 7, perDay: 100 } });
    const { id, jwt, keys } = await keyHolder(api, 1);
    await api.explorer.users.setRoles(id, ['premium', 'user']);
    api.clock.now += MINUTE_MS;
    expect(headersOf(await api.request('/api/v1/nope', { headers: jwt }))).toMatchObject({ limit: '7', remaining: '6' });
    expect(headersOf(await api.request('/api/v1/nope', { headers: keys[0]!.headers }))).toMatchObject({ limit: '7', remaining: '5' });
  });

  it('requests with bad credentials count against the address, so guessing is limited too', async () => {
    const api = await limited({ anonymous: { perMinute: 3, perDay: 100 } });
    for (let i = 0; i < 3; i++) expect((await api.request('/api/v1/nope', { headers: { authorization: 'Bearer forged' } })).status).toBe(401);
    const refused = await api.request('/api/v1/nope', { headers: { 'x-api-key': 'clk_forged' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
  });

  it('X-Forwarded-For is ignored unless proxies are trusted, then its last proxy-written entry counts', async () => {
    const direct = await limited({ anonymous: { perMinute: 2, perDay: 100 } });
    for (const client of ['10.0.0.1', '10.0.0.2']) expect((await direct.request('/api/v1/nope', { headers: { 'x-forwarded-for': client } })).status).toBe(404);
    expect((await direct.request('/api/v1/nope', { headers: { 'x-forwarded-for': '10.0.0.3' } })).status).toBe(429);

    const proxied = await limited({ anonymous: { perMinute: 2, perDay: 100 }, trustedProxyHops: 1 });
    for (let i = 0; i < 2; i++) expect((await proxied.request('/api/v1/nope', { headers: { 'x-forwarded-for': 'spoofed, 10.0.0.1' } })).status).toBe(404);
    expect((await proxied.request('/api/v1/nope', { headers: { 'x-forwarded-for': 'other-spoof, 10.0.0.1' } })).status).toBe(429);
    expect((await proxied.request('/api/v1/nope', { headers: { 'x-forwarded-for': '10.0.0.2' } })).status).toBe(404);
  });

  it('registration is throttled per address per hour', async () => {
    const api = await limited({ registrationsPerHour: 2 });
    const register = () => api.request('/api/v1/auth/register', { method: 'POST', body: { email: `r-${randomUUID()}@example.com`, password: PASSPHRASE, name: 'R' } });
    expect((await register()).status).toBe(200);
    expect((await register()).status).toBe(200);
    const refused = await register();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(errorEnvelope('Max rate limit reached'));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    api.clock.now += 3_600_000;
    expect((await register()).status).toBe(200);
  });

  /** Registers a fresh account on `api`; `login` sends its email (from `from`, an X-Forwarded-For entry). */
  async function account(api: Limited) {
    const email = `login-${randomUUID()}@example.com`;
    const registered = await api.request('/api/v1/auth/register', { method: 'POST', body: { email, password: PASSPHRASE, name: 'L' } });
    expect(registered.status).toBe(200);
    return {
      email,
      login: (password: string, from = '127.0.0.1', address = email) =>
        api.request('/api/v1/auth/login', { method: 'POST', body: { email: address, password }, headers: { 'x-forwarded-for': from } }),
    };
  }

  it('after the allowed failed logins an account is locked from every address; other accounts are not', async () => {
    const api = await limited({ loginFailures: 3, loginWindowMinutes: 15, trustedProxyHops: 1 }, 1_800_000_000_000);
    const locked = await account(api);
    const other = await account(api);
    for (let i = 0; i < 3; i++) expect((await locked.login('wrong wrong wrong')).status).toBe(401);
    const refused = await locked.login(PASSPHRASE, '10.9.9.9', locked.email.toUpperCase());
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(errorEnvelope('Max rate limit reached'));
    expect((await other.login(PASSPHRASE)).status).toBe(200);
    api.clock.now += 15 * MINUTE_MS;
    expect((await locked.login(PASSPHRASE)).status).toBe(200);
  });

  it('40 parallel wrong passwords from 40 addresses get at most 10 answers of 401, the rest 429, and lock the account', async () => {
    const api = await limited({ trustedProxyHops: 1 });
    const { login } = await account(api);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login('wrong wrong wrong', `10.1.${i}.1`)));
    const statuses = answers.map((answer) => answer.status);
    const guessed = statuses.filter((status) => status === 401).length;
    expect(guessed).toBeGreaterThan(0);
    expect(guessed).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - guessed);
    for (const answer of answers.filter((a) => a.status === 429)) expect(await answer.json()).toEqual(errorEnvelope('Max rate limit reached'));
    expect((await login(PASSPHRASE, '10.2.0.1')).status).toBe(429);
  });

  it('the lock lasts a whole window from the last allowed failure, even when a window ends a second later', async () => {
    const windowEnd = 1_800_000_000_000 + 15 * MINUTE_MS;
    const api = await limited({ loginFailures: 3, loginWindowMinutes: 15 }, windowEnd - 2_000);
    const { login } = await account(api);
    for (let i = 0; i < 3; i++) expect((await login('wrong wrong wrong')).status).toBe(401);
    const lockedAt = api.clock.now;
    const locked = await login(PASSPHRASE);
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('900');

    api.clock.now = windowEnd + 1_000; // the failures' window is over; the lock is not
    const refused = await login(PASSPHRASE);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('897');
    api.clock.now = lockedAt + 15 * MINUTE_MS - 1;
    expect((await login(PASSPHRASE)).status).toBe(429);
    api.clock.now = lockedAt + 15 * MINUTE_MS;
    expect((await login(PASSPHRASE)).status).toBe(200);
  });

  it('successful logins use up none of the failed-login allowance', async () => {
    const api = await limited({ loginFailures: 3, loginWindowMinutes: 15 });
    const { login } = await account(api);
    for (let i = 0; i < 5; i++) expect((await login(PASSPHRASE)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await login('wrong wrong wrong')).status).toBe(401);
    expect((await login(PASSPHRASE)).status).toBe(200);
    expect((await login('wrong wrong wrong')).status).toBe(401);
    expect((await login(PASSPHRASE)).status).toBe(429);
  });

  it('rateLimits.enabled false sends no limit headers and never answers 429', async () => {
    const api = await limited({ enabled: false, anonymous: { perMinute: 1, perDay: 1 } });
    for (let i = 0; i < 3; i++) {
      const response = await api.request('/api/v1/nope');
      expect(response.status).toBe(404);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
}
