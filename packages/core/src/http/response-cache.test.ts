import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TransactionNotFoundError } from '../errors/index.js';
import { createHttpKernel } from './kernel.js';
import { ResponseCache } from './response-cache.js';
import { defineRoute } from './route.js';
import type { HttpRequest } from './types.js';

/** A kernel whose cached route counts its computations, over a head the test moves. */
function setup(maxBytes = 1_000_000) {
  let head: string | null = '0xaa';
  const computed: string[] = [];
  let release: (() => void) | null = null;
  const kernel = createHttpKernel({
    logger: pino({ level: 'silent' }),
    bodyLimit: 64,
    responseCache: new ResponseCache(async () => head, maxBytes),
    routes: [
      defineRoute({
        method: 'GET',
        path: '/api/v1/item/:id',
        auth: 'none',
        cache: 'head',
        summary: 'cached',
        params: z.object({ id: z.string() }),
        handler: async ({ params }) => {
          computed.push(params.id);
          if (params.id === 'slow') await new Promise<void>((resolve) => (release = resolve));
          if (params.id === 'missing') throw new TransactionNotFoundError();
          return { id: params.id, head, n: computed.length };
        },
      }),
      defineRoute({ method: 'GET', path: '/api/v1/live', auth: 'none', summary: 'uncached', handler: () => computed.push('live') }),
    ],
  });
  const get = (url: string) => kernel.handle({ method: 'GET', url, headers: {}, ip: '127.0.0.1' } satisfies HttpRequest);
  return { get, computed, moveHead: (to: string | null) => (head = to), release: () => release?.() };
}

describe('ResponseCache through the kernel', () => {
  it('answers a repeated URL once per head, and afresh when the head moves', async () => {
    const { get, computed, moveHead } = setup();
    const first = await get('/api/v1/item/a?x=1');
    const again = await get('/api/v1/item/a?x=1');
    // The same answer; only the request id is each request's own.
    expect(again).toEqual({ ...first, headers: { ...first.headers, 'x-request-id': again.headers['x-request-id'] } });
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(computed).toEqual(['a']);
    await get('/api/v1/item/a?x=2');
    expect(computed).toEqual(['a', 'a']);
    moveHead('0xbb');
    const moved = await get('/api/v1/item/a?x=1');
    expect(JSON.parse(moved.body).result.head).toBe('0xbb');
    expect(computed).toEqual(['a', 'a', 'a']);
  });

  it('drops the answers of an earlier head as soon as the head moves, so they never fill the budget', async () => {
    const { get, computed, moveHead } = setup();
    await get('/api/v1/item/a');
    moveHead('0xbb');
    await get('/api/v1/item/b');
    // Back on the first head (a reorg back to it): its answer was dropped, so it is computed again.
    moveHead('0xaa');
    await get('/api/v1/item/a');
    expect(computed).toEqual(['a', 'b', 'a']);
  });

  it('keeps no error answers and nothing before a head exists', async () => {
    const { get, computed, moveHead } = setup();
    expect((await get('/api/v1/item/missing')).status).toBe(404);
    expect((await get('/api/v1/item/missing')).status).toBe(404);
    moveHead(null);
    await get('/api/v1/item/b');
    await get('/api/v1/item/b');
    expect(computed).toEqual(['missing', 'missing', 'b', 'b']);
  });

  it('lets concurrent misses of one URL share one computation', async () => {
    const { get, computed, release } = setup();
    const answers = [get('/api/v1/item/slow'), get('/api/v1/item/slow'), get('/api/v1/item/slow')];
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    const bodies = (await Promise.all(answers)).map((answer) => answer.body);
    expect(new Set(bodies).size).toBe(1);
    expect(computed).toEqual(['slow']);
  });

  it('drops the least recently used answers past its size, and leaves unmarked routes alone', async () => {
    const { get, computed } = setup(120);
    await get('/api/v1/item/a');
    await get('/api/v1/item/b');
    await get('/api/v1/item/a');
    expect(computed).toEqual(['a', 'b', 'a']);
    await get('/api/v1/live');
    await get('/api/v1/live');
    expect(computed.filter((id) => id === 'live')).toHaveLength(2);
  });
});
