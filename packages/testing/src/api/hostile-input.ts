import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { expect, it } from 'vitest';
import type { z } from 'zod';
import { canonicalEmail, type Hex, PasswordHasher, type Route } from '@chainlens/core';
import { call, signUp, type ApiContext } from './context.js';

const PASSWORD = 'a long enough passphrase';

/** SQL-like, unicode and wrongly typed values: each must be refused (4xx) or served, never break anything. */
export const HOSTILE: unknown[] = [
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  "0x'||pg_sleep(5)||'",
  '%27%20OR%201%3D1',
  // SQL-like text that is still a valid email, so it gets past validation to storage.
  "o'neil'--@example.com",
  "x'+or+'1'+'1@example.com",
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

type Body = Record<string, unknown>;

/**
 * A valid request to a route that takes a body, so a hostile value in one field is its only
 * fault, and how to read back what the route stores.
 */
interface BodyRoute {
  /** Path parameters (by name) where the route's own are needed. */
  params?: Record<string, string>;
  /** A valid body, fresh for each request (an email registers once). */
  body(): Body;
  /** What the request may change, read from storage: a refused request must leave it as it was. */
  state?(body: Body): Promise<unknown>;
  /** The stored record of an accepted request, by field: the hostile field must read back as sent. */
  written?(body: Body, result: { id?: string }): Promise<Body | null | undefined>;
}

/** Names of an object schema's fields (`params`, `query` or `body` of a route), or none. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  return Object.keys(shapeOf(schema));
}

/** Names of the fields a request must carry. */
function requiredFieldsOf(schema: z.ZodType | undefined): string[] {
  return Object.entries(shapeOf(schema))
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([name]) => name);
}

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  return (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};
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
  it('every field of every route answers hostile values with an envelope, never a 5xx; what is stored reads back exactly', async () => {
    const admin = await signUp(ctx(), ['admin', 'user']);
    const headers = admin.bearer;
    const member = await signUp(ctx());
    const memberKey = (await call(ctx(), 'POST', '/api/v1/auth/api-keys', { name: 'member' }, member.bearer)).body.result as { id: string };
    const storage = ctx().explorer.storage;
    const passwords = new PasswordHasher();
    const { demo } = ctx();
    const profileAddress = `0x${randomUUID().replaceAll('-', '').padEnd(40, '0')}` as const;

    /** Valid path and query values by field name, for the fields a hostile value is not in. */
    const validParams: Record<string, string> = { address: demo.contracts.token, hash: demo.transactions.transfer, blockNumber: '1', id: randomUUID() };
    const validQuery: Record<string, string> = { address: demo.accounts[0]!, txhash: demo.transactions.transfer, blockno: 'latest', email: member.email };
    // A public address by IP, so creating a hook needs no DNS; each accepted hook is deleted once
    // read back, so the per-user cap never turns a later request's answer into a 409.
    const hookBody = () => ({ url: 'https://93.184.216.34/hook', events: ['block'] });
    const hook = (await call(ctx(), 'POST', '/api/v1/account/webhooks', hookBody(), headers)).body.result as { id: string };
    const memberKeyOf = async () => (await storage.listApiKeys(member.id)).find((key) => key.id === memberKey.id);
    const bodyRoutes: Record<string, BodyRoute> = {
      'POST /api/v1/auth/register': {
        body: () => ({ email: `hostile-${randomUUID()}@example.com`, password: PASSWORD, name: 'Ada' }),
        state: (body) => storage.getUserByEmail(canonicalEmail(String(body.email))),
        async written(body) {
          const user = await storage.getUserByEmail(canonicalEmail(String(body.email)));
          // A password reads back as the one it verifies.
          return user && { email: user.email, name: user.name, password: (await passwords.verify(user.passwordHash, String(body.password))) ? body.password : null };
        },
      },
      // Unknown emails: a login reaches storage and the throttle's counters, and locks no account.
      'POST /api/v1/auth/login': { body: () => ({ email: `hostile-${randomUUID()}@example.com`, password: PASSWORD }) },
      'POST /api/v1/auth/api-keys': {
        body: () => ({ name: 'hostile' }),
        state: () => storage.listApiKeys(admin.id),
        written: async (_body, result) => (await storage.listApiKeys(admin.id)).find((key) => key.id === result.id) as Body | undefined,
      },
      'PATCH /api/v1/admin/users/:id': {
        params: { id: member.id },
        body: () => ({ isActive: true }),
        state: () => storage.getUserById(member.id),
        written: () => storage.getUserById(member.id) as Promise<Body | null>,
      },
      'PATCH /api/v1/admin/api-keys/:id': {
        params: { id: memberKey.id },
        body: () => ({ rateLimitPerMinute: 5 }),
        state: memberKeyOf,
        written: memberKeyOf as () => Promise<Body | undefined>,
      },
      'POST /api/v1/transaction/send': { body: () => ({ signedTransaction: '0x02' }) },
      'POST /api/v1/transaction/estimate-gas': { body: () => ({ to: demo.accounts[1]!, data: '0x' }) },
      'POST /api/v1/transaction/batch': { body: () => ({ hashes: [demo.transactions.transfer] }) },
      // A JSON-RPC body has no fields of its own: hostile requests to it are the JSON-RPC tests' own.
      'POST /': { body: () => ({ jsonrpc: '2.0', method: 'eth_chainId', params: [], id: 1 }) },
      'POST /graphql': { body: () => ({ query: '{ __typename }' }) },
      // Well formed, but not the token's source: compiled and refused, nothing stored.
      'POST /api/v1/contract/verify': {
        body: () => ({ address: demo.contracts.token, sourceCode: 'pragma solidity ^0.8.0; contract Hostile {}', compiler: '0.8.37', contractName: 'Hostile' }),
        state: () => storage.getVerifiedContract(demo.contracts.token.toLowerCase() as Hex),
      },
      // Etherscan's parameters belong to each module and action: hostile values in them are the Etherscan tests' own.
      ...Object.fromEntries(
        ['GET /api', 'GET /api/', 'POST /api', 'POST /api/', 'GET /v2/api', 'GET /v2/api/', 'POST /v2/api', 'POST /v2/api/'].map((name) => [
          name,
          { body: () => ({ chainid: String(demo.chainId), module: 'account', action: 'balance', address: demo.accounts[0]! }) },
        ]),
      ),
      // An address no record names, so its label shows in no other test's answers.
      'PUT /api/v2/labels/:address': {
        params: { address: profileAddress },
        body: () => ({ label: 'Hostile' }),
        state: () => storage.getAddressLabels([profileAddress]),
        written: async () => (await storage.getAddressLabels([profileAddress]))[0] as Body | undefined,
      },
      'PUT /api/v1/account/watchlist/:address': {
        params: { address: profileAddress },
        body: () => ({ label: 'Hostile' }),
        state: () => storage.listPrivateLabels(admin.id),
        written: async () => (await storage.listPrivateLabels(admin.id)).find((entry) => entry.address === profileAddress) as Body | undefined,
      },
      'POST /api/v1/account/webhooks': {
        body: hookBody,
        state: () => storage.listWebhooks(admin.id),
        async written(_body, result) {
          const stored = await storage.getWebhook(result.id!, admin.id);
          await storage.deleteWebhook(result.id!, admin.id);
          return stored as Body | null;
        },
      },
      'PATCH /api/v1/account/webhooks/:id': {
        params: { id: hook.id },
        body: () => ({ description: 'Hostile' }),
        state: () => storage.getWebhook(hook.id, admin.id),
        written: () => storage.getWebhook(hook.id, admin.id) as Promise<Body | null>,
      },
      'PUT /api/v2/metadata/:address': {
        params: { address: profileAddress },
        body: () => ({ name: 'Hostile' }),
        state: () => storage.getMetadataProfile(profileAddress),
        written: () => storage.getMetadataProfile(profileAddress) as Promise<Body | null>,
      },
    };

    const totalsBefore = await storage.getChainTotals();
    const failures: string[] = [];
    const readBack = new Set<string>();
    let requests = 0;
    for (const route of ctx().explorer.kernel.routes) {
      const name = `${route.method} ${route.path}`;
      const setting: BodyRoute | undefined = bodyRoutes[name];
      if (route.body && !setting) {
        failures.push(`${name}: no valid body to send hostile values in`);
        continue;
      }
      const targets = [...fieldsOf(route.params).map((f) => ['params', f] as const), ...fieldsOf(route.query).map((f) => ['query', f] as const), ...fieldsOf(route.body).map((f) => ['body', f] as const)];
      for (const [where, field] of targets) {
        for (const value of HOSTILE) {
          if (where !== 'body' && typeof value !== 'string') continue;
          const text = String(value);
          // A path segment must be non-empty to reach the route at all, and a lone surrogate has no URL form.
          const segment = urlSegment(text);
          if (where === 'params' && (text.trim() === '' || segment === null)) continue;
          const request = hostileRequest(route, setting, where, field, value, segment, validParams, validQuery);
          const before = await setting?.state?.(request.body ?? {});
          requests++;
          const answer = await call(ctx(), route.method, request.url, request.body, headers).catch((error: unknown) => ({ status: -1, body: { message: String(error), result: null } }) as const);
          const what = `${name} ${where}.${field}=${JSON.stringify(value).slice(0, 40)}`;
          const envelope = answer.body as { status?: unknown; message?: unknown };
          // GraphQL answers in the GraphQL spec's shape (`errors` with messages); Node's refusals (431) are envelopes everywhere.
          const isEnvelope = (envelope.status === '0' || envelope.status === '1') && typeof envelope.message === 'string';
          const shaped = isEnvelope || (route.path === '/graphql' && isGraphqlAnswer(answer.body));
          const broken =
            answer.status >= 500 ||
            answer.status < 0 ||
            !shaped ||
            /\n\s+at |\.ts:\d+/.test(JSON.stringify(answer.body));
          if (broken) failures.push(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
          if (!setting || !request.body) continue;
          if (answer.status === 200 && where === 'body' && setting.written) {
            const stored = await setting.written(request.body, (answer.body.result ?? {}) as { id?: string });
            readBack.add(name);
            // Text is trimmed, as documented; otherwise what was sent is what is stored.
            const sent = typeof value === 'string' ? value.trim() : value;
            if (!isDeepStrictEqual(stored?.[field], sent)) failures.push(`${what}: accepted, but reads back as ${JSON.stringify(stored?.[field])?.slice(0, 60)}`);
          } else if (answer.status !== 200 && setting.state) {
            const after = await setting.state(request.body);
            if (!isDeepStrictEqual(after, before)) failures.push(`${what}: refused with ${answer.status}, yet it changed what is stored`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(200);
    // Hostile values got past validation to storage on every route that stores.
    expect([...readBack].sort()).toEqual(Object.keys(bodyRoutes).filter((name) => bodyRoutes[name]!.written).sort());
    // Nothing it sent reached the chain data, and the explorer still answers.
    expect(await storage.getChainTotals()).toEqual(totalsBefore);
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

/**
 * The request carrying `value` in one field (`where`.`field`) of `route`, every other field
 * valid: path parameters and required query fields from the valid values (the route's own
 * first), the body from the route's valid one.
 */
function hostileRequest(
  route: Route,
  setting: BodyRoute | undefined,
  where: 'params' | 'query' | 'body',
  field: string,
  value: unknown,
  segment: string | null,
  validParams: Record<string, string>,
  validQuery: Record<string, string>,
): { url: string; body: Body | undefined } {
  const params = { ...validParams, ...setting?.params };
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => (where === 'params' && name === field ? segment! : encodeURIComponent(params[name]!)));
  const query = Object.fromEntries(requiredFieldsOf(route.query).map((name) => [name, validQuery[name]!]));
  if (where === 'query') query[field] = String(value);
  const search = new URLSearchParams(query).toString();
  const url = search === '' ? path : `${path}?${search}`;
  if (route.method === 'GET' || route.method === 'DELETE') return { url, body: undefined };
  const body = setting?.body() ?? {};
  if (where === 'body') body[field] = value;
  return { url, body };
}

/** A GraphQL response: data, or errors each with a message. */
function isGraphqlAnswer(body: unknown): boolean {
  const { data, errors } = body as { data?: unknown; errors?: unknown };
  return data !== undefined || (Array.isArray(errors) && errors.length > 0 && errors.every((error: { message?: unknown }) => typeof error.message === 'string'));
}
