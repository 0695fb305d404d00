import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { envelopeFormat, type ExplorerError, ForbiddenError, type Route, UnauthorizedError } from '@chainlens/core';
import { call, errorEnvelope, signUp, type ApiContext } from './context.js';

/** A harmless value for each path parameter: requests may fail validation or find nothing, never change data. */
const PARAM_VALUES: Record<string, string> = {
  hash: `0x${'ab'.repeat(32)}`,
  blockNumber: 'latest',
  address: `0x${'12'.repeat(20)}`,
  id: randomUUID(),
};

/** The scope matrix: every route of the table × keys holding `read`, `write` or `admin` alone, and JWTs. */
export function scopeMatrixTests(ctx: () => ApiContext): void {
  it('every route answers each key scope and JWT as its auth and scope say', async () => {
    const { token } = await signUp(ctx(), ['admin', 'user']);
    const keyWith = async (scope: string) =>
      (await call(ctx(), 'POST', '/api/v1/auth/api-keys', { name: scope, scopes: [scope] }, { authorization: `Bearer ${token}` })).body.result.key as string;
    const callers = [
      ...(await Promise.all(['read', 'write', 'admin'].map(async (scope) => ({ name: `${scope} key`, kind: 'apiKey', scopes: [scope], headers: { 'x-api-key': await keyWith(scope) } })))),
      { name: 'admin JWT', kind: 'jwt', scopes: ['read', 'write', 'admin'], headers: { authorization: `Bearer ${token}` } },
    ];

    const routes = ctx().explorer.kernel.routes;
    expect(new Set(routes.map((route) => route.scope ?? 'read'))).toEqual(new Set(['read', 'write', 'admin']));
    const mismatches: string[] = [];
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, (_, name: string) => PARAM_VALUES[name] ?? 'x');
      for (const caller of callers) {
        const { status, body } = await call(ctx(), route.method, path, route.method === 'GET' || route.method === 'DELETE' ? undefined : {}, caller.headers);
        // A refusal is what the route's format writes for it (the envelope's 401 and 403 by default).
        const format = route.format ?? envelopeFormat;
        const refused = (error: ExplorerError) => {
          const answer = format.error(error);
          return status === answer.status && isDeepStrictEqual(body, JSON.parse(answer.body));
        };
        const expected = expectation(route, caller);
        const ok = expected === 'served' ? status !== 401 && status !== 403 && !refused(new UnauthorizedError()) && !refused(new ForbiddenError()) : refused(expected);
        if (!ok) mismatches.push(`${route.method} ${route.path} with ${caller.name}: ${status} ${body.message}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('a key scope check happens before the body is read: a forbidden write is refused whatever it carries', async () => {
    const reader = await signUp(ctx());
    const key = (await call(ctx(), 'POST', '/api/v1/auth/api-keys', { name: 'r', scopes: ['read'] }, reader.bearer)).body.result.key as string;
    const answer = await call(ctx(), 'PATCH', `/api/v1/admin/users/${reader.id}`, { roles: ['admin', 'user'] }, { 'x-api-key': key });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(errorEnvelope('Forbidden: insufficient scope'));
    expect((await ctx().explorer.storage.getUserById(reader.id))!.roles).toEqual(['user']);
  });
}

function expectation(route: Route, caller: { kind: string; scopes: string[] }): 'served' | ExplorerError {
  if (route.auth === 'jwt' && caller.kind !== 'jwt') return new UnauthorizedError();
  if (!caller.scopes.includes(route.scope ?? 'read')) return new ForbiddenError();
  return 'served';
}
