import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { z } from 'zod';
import { call, signUp, type ApiContext } from './context.js';

const PASSWORD = 'a long enough passphrase';

/** SQL-like, unicode and wrongly typed values: each must be refused (4xx) or served, never break anything. */
const HOSTILE: unknown[] = [
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  "0x'||pg_sleep(5)||'",
  '%27%20OR%201%3D1',
  '\u0000',
  'a\u0000b',
  '💥🚀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '\u202egnp.exe',
  '\ud800',
  'é'.repeat(5_000),
  '',
  ' ',
  { $gt: '' },
  ['a', 'b'],
  -1,
  1e308,
  true,
  null,
];

/** Names of an object schema's fields (`params`, `query` or `body` of a route), or none. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** `text` as a path segment, or `null` when it has no URL form (a lone surrogate). */
function urlSegment(text: string): string | null {
  try {
    return encodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Hostile input in every field of every route, and exact round trips of unusual text. */
export function hostileInputTests(ctx: () => ApiContext): void {
  it('every field of every route answers hostile values with an envelope, never a 5xx or a stack trace', async () => {
    const headers = (await signUp(ctx(), ['admin', 'user'])).bearer;
    const totalsBefore = await ctx().explorer.storage.getChainTotals();
    const failures: string[] = [];
    let requests = 0;
    for (const route of ctx().explorer.kernel.routes) {
      const params = fieldsOf(route.params);
      const targets = [...params.map((f) => ['params', f] as const), ...fieldsOf(route.query).map((f) => ['query', f] as const), ...fieldsOf(route.body).map((f) => ['body', f] as const)];
      for (const [where, field] of targets) {
        for (const value of HOSTILE) {
          if (where !== 'body' && typeof value !== 'string') continue;
          const text = String(value);
          // A path segment must be non-empty to reach the route at all, and a lone surrogate has no URL form.
          const segment = urlSegment(text);
          if (where === 'params' && (text.trim() === '' || segment === null)) continue;
          const path = route.path.replace(/:(\w+)/g, (_, name: string) => (where === 'params' && name === field ? segment! : `0x${'ab'.repeat(32)}`));
          const url = where === 'query' ? `${path}?${new URLSearchParams({ [field]: text })}` : path;
          const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : where === 'body' ? { [field]: value } : {};
          requests++;
          const answer = await call(ctx(), route.method, url, body, headers).catch((error: unknown) => ({ status: -1, body: { message: String(error) } }) as const);
          const envelope = answer.body as { status?: unknown; message?: unknown };
          const broken =
            answer.status >= 500 ||
            answer.status < 0 ||
            (envelope.status !== '0' && envelope.status !== '1') ||
            typeof envelope.message !== 'string' ||
            /\n\s+at |\.ts:\d+/.test(JSON.stringify(answer.body));
          if (broken) failures.push(`${route.method} ${route.path} ${where}.${field}=${JSON.stringify(value).slice(0, 40)}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(200);
    // Nothing it sent reached the chain data, and the explorer still answers.
    expect(await ctx().explorer.storage.getChainTotals()).toEqual(totalsBefore);
    expect((await call(ctx(), 'GET', '/api/v1/health')).status).toBe(200);
  });

  it('SQL-like and unicode text is stored and answered exactly as sent', async () => {
    const strange = ["Robert'); DROP TABLE users;--", '名前 🚀 ∑ \u202e عربى', "quote ' double \" back \\ slash"];
    for (const name of strange) {
      const email = `round-trip-${randomUUID()}@example.com`;
      const registered = await call(ctx(), 'POST', '/api/v1/auth/register', { email, password: `${name} ${PASSWORD}`, name });
      expect(registered.status, name).toBe(200);
      expect(registered.body.result.name).toBe(name.trim());
      const login = await call(ctx(), 'POST', '/api/v1/auth/login', { email, password: `${name} ${PASSWORD}` });
      expect(login.status, name).toBe(200);
      const bearer = { authorization: `Bearer ${login.body.result.access_token}` };
      const created = await call(ctx(), 'POST', '/api/v1/auth/api-keys', { name, description: name }, bearer);
      expect(created.status, name).toBe(200);
      const listed = await call(ctx(), 'GET', '/api/v1/auth/api-keys', undefined, bearer);
      expect(listed.body.result.map((key: { name: string }) => key.name)).toEqual([name.trim()]);
      expect((await ctx().explorer.storage.getUserById(registered.body.result.id))!.name).toBe(name.trim());
    }
  });
}
