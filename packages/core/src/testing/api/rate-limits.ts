import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import type { ExplorerConfig } from '../../config.js';
import { createExplorer, type Explorer } from '../../explorer.js';
import { DAY_MS, MINUTE_MS } from '../../limits/index.js';
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

  it('authenticated callers count per user or per key, premium higher, a key limit set by an admin wins', async () => {
    const api = await limited({ anonymous: { perMinute: 2, perDay: 100 }, authenticated: { perMinute: 3, perDay: 100 }, premium: { perMinute: 7, perDay: 100 } });
    const email = `limits-${randomUUID()}@example.com`;
    const registered = await api.request('/api/v1/auth/register', { method: 'POST', body: { email, password: PASSPHRASE, name: 'L' } });
    const userId = ((await registered.json()) as { result: { id: string } }).result.id;
    const login = await api.request('/api/v1/auth/login', { method: 'POST', body: { email, password: PASSPHRASE } });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { result: { access_token: string } }).result.access_token;
    const jwt = { authorization: `Bearer ${token}` };
    const created = await api.request('/api/v1/auth/api-keys', { method: 'POST', body: { name: 'k' }, headers: jwt });
    const key = ((await created.json()) as { result: { id: string; key: string } }).result;

    // The anonymous address spent its 2 on register and login; the user has spent 1 (the key).
    expect((await api.request('/api/v1/nope')).status).toBe(429);
    expect(headersOf(await api.request('/api/v1/nope', { headers: jwt }))).toMatchObject({ limit: '3', remaining: '1' });
    expect(headersOf(await api.request('/api/v1/nope', { headers: { 'x-api-key': key.key } }))).toMatchObject({ limit: '3', remaining: '2' });

    await api.explorer.services.apiKeys.setRateLimit(key.id, 5);
    expect(headersOf(await api.request('/api/v1/nope', { headers: { 'x-api-key': key.key } }))).toMatchObject({ limit: '5', remaining: '3' });
    await api.explorer.users.setRoles(userId, ['premium', 'user']);
    expect(headersOf(await api.request('/api/v1/nope', { headers: jwt }))).toMatchObject({ limit: '7', remaining: '4' });
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
