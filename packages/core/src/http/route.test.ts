import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute, RouteResult, type Route } from './route.js';

/**
 * `defineRoute` types a handler's result against its route's `response` schema. What this test
 * asserts is checked by `npm run typecheck`: each `@ts-expect-error` fails it once the wrong
 * handler below it compiles. (A literal in a handler's own object needs `as const`: TypeScript
 * widens it before it meets the schema's type.)
 */
describe('defineRoute', () => {
  const response = z.object({ guid: z.string(), status: z.literal('verified') });
  const row = { method: 'GET', path: '/api/v1/thing', auth: 'none', summary: 'a thing', response } as const;

  it('accepts a handler answering what the response schema describes, plain, wrapped or promised', async () => {
    const routes: Route[] = [
      defineRoute({ ...row, handler: ({ request }) => ({ guid: request.url, status: 'verified' as const }) }),
      defineRoute({ ...row, handler: async () => new RouteResult({ guid: 'g', status: 'verified' as const }, 'Made', 201) }),
      // A route without a response schema answers anything.
      defineRoute({ method: 'GET', path: '/api/v1/any', auth: 'none', summary: 'any', handler: () => 42 }),
    ];
    const context = { params: {}, query: {}, body: undefined, request: { method: 'GET', url: '/', headers: {}, ip: '' }, principal: null };
    expect(await routes[0]!.handler(context)).toEqual({ guid: '/', status: 'verified' });
    expect(await routes[1]!.handler(context)).toEqual(new RouteResult({ guid: 'g', status: 'verified' }, 'Made', 201));
    expect(await routes[2]!.handler(context)).toBe(42);
  });

  it('refuses, at compile time, a handler whose result the response schema does not describe', () => {
    const wrong = [
      defineRoute({
        ...row,
        // @ts-expect-error guid is a string
        handler: () => ({ guid: 1, status: 'verified' }),
      }),
      defineRoute({
        ...row,
        // @ts-expect-error status is missing
        handler: async () => ({ guid: 'g' }),
      }),
      defineRoute({
        ...row,
        // @ts-expect-error the wrapped result has another status
        handler: () => new RouteResult({ guid: 'g', status: 'pending' as const }),
      }),
    ];
    expect(wrong).toHaveLength(3);
  });
});
