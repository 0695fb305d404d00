import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TransactionNotFoundError, UnauthorizedError } from '../errors/index.js';
import { createHttpKernel } from './kernel.js';
import { hashSchema } from '../values/hex.js';
import { positiveIntQuery } from './request-schemas.js';
import { asText } from './response-text.js';
import { defineRoute, RouteResult } from './route.js';
import type { HttpRequest } from './types.js';

const seen: unknown[] = [];
const kernel = createHttpKernel({
  logger: pino({ level: 'silent' }),
  bodyLimit: 64,
  routes: [
    defineRoute({ method: 'GET', path: '/api/v1/transaction/pending', auth: 'none', summary: 'static', handler: () => 'pending' }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash',
      auth: 'none',
      summary: 'param',
      params: z.object({ hash: hashSchema }),
      query: z.object({ limit: positiveIntQuery(50, 100) }),
      handler: ({ params, query }) => ({ hash: params.hash, limit: query.limit }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/echo',
      auth: 'none',
      summary: 'body',
      body: z.object({ name: z.string().min(1) }),
      handler: ({ body }) => {
        seen.push(body);
        return new RouteResult(body, 'Echoed', 200);
      },
    }),
    defineRoute({ method: 'GET', path: '/api/v1/missing', auth: 'none', summary: '404', handler: () => Promise.reject(new TransactionNotFoundError()) }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/boom',
      auth: 'none',
      summary: '500',
      handler: () => {
        throw new Error('secret detail at /home/user/file.ts:1');
      },
    }),
  ],
});

const HASH = `0x${'ab'.repeat(32)}`;

async function call(method: string, url: string, rawBody?: string) {
  const request: HttpRequest = { method, url, headers: {}, ip: '127.0.0.1', rawBody };
  const response = await kernel.handle(request);
  return { status: response.status, body: JSON.parse(asText(response).body) as { status: string; message: string; result: unknown } };
}

describe('HTTP kernel', () => {
  it('prefers a static path over a parameterised one', async () => {
    expect((await call('GET', '/api/v1/transaction/pending')).body).toEqual({ status: '1', message: 'OK', result: 'pending' });
  });

  it('parses params and query, normalising the hash to lowercase', async () => {
    const { body } = await call('GET', `/api/v1/transaction/${HASH.toUpperCase().replace('0X', '0x')}?limit=7`);
    expect(body.result).toEqual({ hash: HASH, limit: 7 });
  });

  it('clamps a query limit above its maximum and rejects zero', async () => {
    expect((await call('GET', `/api/v1/transaction/${HASH}?limit=5000`)).body.result).toMatchObject({ limit: 100 });
    const zero = await call('GET', `/api/v1/transaction/${HASH}?limit=0`);
    expect(zero).toEqual({ status: 400, body: { status: '0', message: 'Error! Invalid request: limit: must be a positive integer', result: null } });
  });

  it('answers a malformed hash with the specific message', async () => {
    expect(await call('GET', '/api/v1/transaction/0x1234')).toEqual({
      status: 400,
      body: { status: '0', message: 'Error! Invalid transaction hash format', result: null },
    });
  });

  it('answers unknown routes and wrong methods with 404 Endpoint not found', async () => {
    for (const [method, url] of [['GET', '/nope'], ['DELETE', '/api/v1/transaction/pending'], ['GET', '/api/v1/transaction/']]) {
      expect(await call(method!, url!)).toEqual({ status: 404, body: { status: '0', message: 'Error! Endpoint not found', result: null } });
    }
  });

  it('validates bodies and reports the field', async () => {
    expect((await call('POST', '/api/v1/echo', '{"name":"a"}')).body).toEqual({ status: '1', message: 'Echoed', result: { name: 'a' } });
    expect((await call('POST', '/api/v1/echo', '{"name":""}')).body.message).toMatch(/^Error! Invalid request: name: /);
    expect(await call('POST', '/api/v1/echo', '{"name":')).toEqual({ status: 400, body: { status: '0', message: 'Error! Invalid request: body: malformed JSON', result: null } });
    expect((await call('POST', '/api/v1/echo')).status).toBe(400);
  });

  it('refuses a body over the limit with 413 before the handler runs', async () => {
    seen.length = 0;
    const big = JSON.stringify({ name: 'x'.repeat(100) });
    expect(await call('POST', '/api/v1/echo', big)).toEqual({ status: 413, body: { status: '0', message: 'Error! Request body too large', result: null } });
    expect(seen).toEqual([]);
  });

  it('maps typed errors to their status and message', async () => {
    expect(await call('GET', '/api/v1/missing')).toEqual({ status: 404, body: { status: '0', message: 'Error! Transaction not found', result: null } });
  });

  it('masks unexpected errors as 500 without any detail', async () => {
    const response = await kernel.handle({ method: 'GET', url: '/api/v1/boom', headers: {}, ip: '' });
    expect(response.status).toBe(500);
    expect(JSON.parse(asText(response).body)).toEqual({ status: '0', message: 'Error! Internal server error', result: null });
    expect(response.body).not.toMatch(/secret|home|\.ts/);
  });
});

describe('HTTP kernel: route formats, form bodies and API keys in parameters', () => {
  const seenKeys: (string | undefined)[] = [];
  const plainFormat = {
    success: (result: unknown) => ({ status: 200, headers: {}, body: JSON.stringify({ answer: result }) }),
    error: (error: { message: string }) => ({ status: 200, headers: {}, body: JSON.stringify({ failed: error.message }) }),
  };
  let allowance = Number.POSITIVE_INFINITY;
  const counted: string[] = [];
  const keyed = createHttpKernel({
    logger: pino({ level: 'silent' }),
    bodyLimit: 256,
    authenticate: (request) => {
      const key = request.headers['x-api-key'];
      seenKeys.push(typeof key === 'string' ? key : undefined);
      if (key === undefined) return null;
      if (key !== 'good') return Promise.reject(new UnauthorizedError());
      return Promise.resolve({ kind: 'jwt', user: { id: 'u', email: 'u@example.com', name: 'U', passwordHash: '', roles: ['user'], isActive: true, createdAt: new Date(0) }, expiresAt: new Date(0) });
    },
    rateLimit: (request) => {
      counted.push(request.url);
      return Promise.resolve({ headers: {}, retryAfter: counted.length > allowance ? 7 : null });
    },
    routes: [
      defineRoute({
        method: 'POST',
        path: '/form',
        auth: 'none',
        summary: 'form or JSON',
        formBody: true,
        apiKeyParam: 'apikey',
        format: plainFormat,
        query: z.record(z.string(), z.string()),
        body: z.record(z.string(), z.unknown()).optional(),
        handler: ({ query, body, principal }) => ({ query, body: body ?? null, caller: principal?.user.id ?? null }),
      }),
      defineRoute({
        method: 'POST',
        path: '/json',
        auth: 'none',
        summary: 'JSON only',
        body: z.record(z.string(), z.unknown()),
        handler: ({ body }) => body,
      }),
    ],
  });

  async function send(url: string, rawBody?: string, headers: Record<string, string> = {}) {
    const response = await keyed.handle({ method: 'POST', url, headers, ip: '127.0.0.1', rawBody });
    return { status: response.status, body: JSON.parse(asText(response).body) as unknown };
  }

  const FORM = { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' };

  it('parses a form body where the route accepts one (first value of a repeated key), JSON otherwise', async () => {
    expect(await send('/form?module=x', 'a=1&b=two+words&a=2&c=%2B', FORM)).toEqual({
      status: 200,
      body: { answer: { query: { module: 'x' }, body: { a: '1', b: 'two words', c: '+' }, caller: null } },
    });
    expect((await send('/form', '{"a":1}', { 'content-type': 'application/json' })).body).toEqual({ answer: { query: {}, body: { a: 1 }, caller: null } });
    expect(await send('/json', 'a=1', FORM)).toEqual({ status: 400, body: { status: '0', message: 'Error! Invalid request: body: malformed JSON', result: null } });
  });

  it("writes every error of a route with its own format: credentials, input and limits", async () => {
    expect(await send('/form', 'apikey=bad', FORM)).toEqual({ status: 200, body: { failed: 'Unauthorized' } });
    expect(await send('/form', '{"a":', { 'content-type': 'application/json' })).toEqual({ status: 200, body: { failed: 'Error! Invalid request: body: malformed JSON' } });
    expect(await send('/form', 'x'.repeat(300), FORM)).toEqual({ status: 200, body: { failed: 'Error! Request body too large' } });
    allowance = counted.length;
    const limited = await keyed.handle({ method: 'POST', url: '/form', headers: {}, ip: '127.0.0.1' });
    allowance = Number.POSITIVE_INFINITY;
    expect({ status: limited.status, body: JSON.parse(asText(limited).body), retryAfter: limited.headers['retry-after'] }).toEqual({
      status: 200,
      body: { failed: 'Max rate limit reached' },
      retryAfter: '7',
    });
  });

  it('authenticates an API key sent as a body or query parameter like X-API-Key, the header winning', async () => {
    seenKeys.length = 0;
    expect((await send('/form', 'apikey=good', FORM)).body).toMatchObject({ answer: { caller: 'u' } });
    expect((await send('/form?apikey=good')).body).toMatchObject({ answer: { caller: 'u' } });
    expect((await send('/form?apikey=', 'apikey=', FORM)).body).toMatchObject({ answer: { caller: null } });
    expect((await send('/form?apikey=bad', undefined, { 'x-api-key': 'good' })).body).toMatchObject({ answer: { caller: 'u' } });
    expect(seenKeys).toEqual(['good', 'good', undefined, 'good']);
  });

  it('counts a request whose body cannot be read before answering it', async () => {
    counted.length = 0;
    expect((await send('/form', '{"a":', { 'content-type': 'application/json' })).body).toEqual({ failed: 'Error! Invalid request: body: malformed JSON' });
    expect(counted).toEqual(['/form']);
  });
});
