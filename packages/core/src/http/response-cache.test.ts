import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TransactionNotFoundError } from '../errors/index.js';
import { createEventHub } from '../events/index.js';
import { BlockLineage, tokenScope, verificationScope } from '../services/block-lineage.js';
import type { Hex } from '../storage/index.js';
import { makeChain } from '@chainlens/testing';
import { createHttpKernel } from './kernel.js';
import { ResponseCache } from './response-cache.js';
import { asText } from './response-text.js';
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
      defineRoute({
        method: 'GET',
        path: '/api/v1/some',
        auth: 'none',
        cache: 'head',
        // Only the answers asked to be kept may be.
        cacheable: (query) => query.keep === 'yes',
        summary: 'cached when the query says so',
        query: z.object({ keep: z.string() }),
        handler: ({ request }) => computed.push(request.url),
      }),
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
    expect(JSON.parse(asText(moved).body).result.head).toBe('0xbb');
    expect(computed).toEqual(['a', 'a', 'a']);
  });

  it('keeps a large answer as its UTF-8 bytes in memory of their own, encoded once for every request it answers; a small one as its text', async () => {
    const { get } = setup();
    const large = `%C3%A9${'x'.repeat(20_000)}`;
    const first = await get(`/api/v1/item/${large}`);
    const again = await get(`/api/v1/item/${large}`);
    expect(again.body).toBeInstanceOf(Uint8Array);
    expect(again.body).toBe(first.body);
    // Memory of its own, not a slice of a shared pool slab the budget does not count.
    expect((again.body as Uint8Array).buffer.byteLength).toBe((again.body as Uint8Array).byteLength);
    expect(JSON.parse(asText(again).body).result.id).toBe(`é${'x'.repeat(20_000)}`);
    // A small body goes out with the response head in one write: kept as the text it was.
    const small = await get('/api/v1/item/%C3%A9');
    const smallAgain = await get('/api/v1/item/%C3%A9');
    expect(typeof smallAgain.body).toBe('string');
    expect(smallAgain.body).toBe(small.body);
    expect(JSON.parse(asText(smallAgain).body).result.id).toBe('é');
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

  it('keeps only the answers its cacheable allows on a route that says which', async () => {
    const { get, computed } = setup();
    for (let i = 0; i < 2; i++) {
      await get('/api/v1/some?keep=yes');
      await get('/api/v1/some?keep=no');
    }
    expect(computed).toEqual(['/api/v1/some?keep=yes', '/api/v1/some?keep=no', '/api/v1/some?keep=no']);
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

describe('ResponseCache with a lineage: scoped answers outlive their head', () => {
  const TOKEN = `0x${'a'.repeat(40)}` as Hex;
  const OTHER = `0x${'b'.repeat(40)}` as Hex;
  const TRANSFER = makeChain({ blocks: 8, txPerBlock: 4 }).flatMap((bundle) => bundle.tokenTransfers)[0]!;

  /** A kernel with a scoped route of a token's transfers and an unscoped one, over blocks the test writes. */
  function setup() {
    const hub = createEventHub();
    const chain = makeChain({ blocks: 6, txPerBlock: 1 });
    for (const bundle of chain) bundle.tokenTransfers = [];
    let head: string | null = null;
    /** The operator data (labels) version answers may show. */
    let labels = 0;
    const computed: string[] = [];
    const route = (path: string, scoped: boolean) =>
      defineRoute({
        method: 'GET',
        path,
        auth: 'none',
        cache: 'head',
        ...(scoped && { cacheScopes: (params: Readonly<Record<string, string>>) => [tokenScope(params.address ?? '')] }),
        // A page is full when the request says so; `verified`: full, and still outdated by the token's verification.
        appendOnlyPage: (query: { full?: string }, _result: unknown, params: Readonly<Record<string, string>>) =>
          query.full === 'verified' ? [verificationScope(params.address ?? '')] : query.full === 'yes',
        summary: 'cached',
        params: z.object({ address: z.string() }),
        query: z.object({ full: z.string().optional() }),
        handler: ({ params }) => {
          computed.push(`${path.split('/')[3]} ${params.address}`);
          return { head };
        },
      });
    const kernel = createHttpKernel({
      logger: pino({ level: 'silent' }),
      bodyLimit: 64,
      responseCache: new ResponseCache(async () => head, 1_000_000, new BlockLineage(hub), async () => String(labels)),
      routes: [route('/api/v1/scoped/:address', true), route('/api/v1/unscoped/:address', false)],
    });
    const get = async (url: string) => JSON.parse(asText(await kernel.handle({ method: 'GET', url, headers: {}, ip: '127.0.0.1' })).body).result.head as string;
    /** Writes block i, moving `tokens`; `heard: false` moves the head without the block event (read from storage). */
    const write = (i: number, tokens: Hex[] = [], heard = true) => {
      const bundle = chain[i]!;
      bundle.tokenTransfers = tokens.map((token) => ({ ...TRANSFER, token }));
      if (heard) hub.emit('block', bundle);
      head = bundle.block.hash;
    };
    return { hub, chain, get, write, computed, changeLabels: () => labels++ };
  }

  it('serves a token’s answer across blocks that do not move the token, and afresh after one that does', async () => {
    const { chain, get, write, computed } = setup();
    write(0);
    expect(await get(`/api/v1/scoped/${TOKEN}`)).toBe(chain[0]!.block.hash);
    write(1, [OTHER]);
    write(2);
    expect(await get(`/api/v1/scoped/${TOKEN}`)).toBe(chain[0]!.block.hash);
    expect(await get(`/api/v1/scoped/${TOKEN.toUpperCase().replace('0X', '0x')}`)).toBe(chain[2]!.block.hash);
    expect(await get(`/api/v1/unscoped/${TOKEN}`)).toBe(chain[2]!.block.hash);
    write(3, [TOKEN]);
    expect(await get(`/api/v1/scoped/${TOKEN}`)).toBe(chain[3]!.block.hash);
    expect(await get(`/api/v1/scoped/${TOKEN}`)).toBe(chain[3]!.block.hash);
    expect(computed).toEqual([`scoped ${TOKEN}`, `scoped ${TOKEN.toUpperCase().replace('0X', '0x')}`, `unscoped ${TOKEN}`, `scoped ${TOKEN}`]);
  });

  it('reuses nothing at a head it did not hear, nor across a reorg', async () => {
    const { hub, chain, get, write, computed } = setup();
    write(0);
    await get(`/api/v1/scoped/${TOKEN}`);
    write(1, [], false);
    expect(await get(`/api/v1/scoped/${TOKEN}`)).toBe(chain[1]!.block.hash);
    // Heard at last, block 1 continues the line: the answer of block 0 holds again.
    write(1);
    write(2);
    expect(await get(`/api/v1/scoped/${TOKEN}`)).toBe(chain[0]!.block.hash);
    hub.emit('reorg', { commonAncestor: { blockNumber: 1n, blockHash: chain[1]!.block.hash }, removedBlockHashes: [chain[2]!.block.hash] });
    write(2);
    expect(await get(`/api/v1/scoped/${TOKEN}`)).toBe(chain[2]!.block.hash);
    expect(computed).toHaveLength(3);
  });

  it('serves a full oldest-first page across blocks that move its token, until a reorg; a partial one only until its token moves', async () => {
    const { hub, chain, get, write, computed } = setup();
    write(0);
    expect(await get(`/api/v1/scoped/${TOKEN}?full=yes`)).toBe(chain[0]!.block.hash);
    expect(await get(`/api/v1/scoped/${TOKEN}?full=no`)).toBe(chain[0]!.block.hash);
    write(1, [TOKEN]);
    expect(await get(`/api/v1/scoped/${TOKEN}?full=yes`)).toBe(chain[0]!.block.hash);
    expect(await get(`/api/v1/scoped/${TOKEN}?full=no`)).toBe(chain[1]!.block.hash);
    write(2, [TOKEN]);
    expect(await get(`/api/v1/scoped/${TOKEN}?full=yes`)).toBe(chain[0]!.block.hash);
    hub.emit('reorg', { commonAncestor: { blockNumber: 1n, blockHash: chain[1]!.block.hash }, removedBlockHashes: [chain[2]!.block.hash] });
    write(2, [TOKEN]);
    expect(await get(`/api/v1/scoped/${TOKEN}?full=yes`)).toBe(chain[2]!.block.hash);
    // Without a lineage's scopes (an unscoped route), an answer is kept for its head alone.
    expect(await get(`/api/v1/unscoped/${TOKEN}?full=yes`)).toBe(chain[2]!.block.hash);
    write(3);
    expect(await get(`/api/v1/unscoped/${TOKEN}?full=yes`)).toBe(chain[3]!.block.hash);
    expect(computed).toEqual([`scoped ${TOKEN}`, `scoped ${TOKEN}`, `scoped ${TOKEN}`, `scoped ${TOKEN}`, `unscoped ${TOKEN}`, `unscoped ${TOKEN}`]);
  });

  it('serves a full oldest-first page across blocks that move its token until a scope it names is touched', async () => {
    const { hub, chain, get, write, computed } = setup();
    const url = `/api/v1/scoped/${TOKEN}?full=verified`;
    write(0);
    expect(await get(url)).toBe(chain[0]!.block.hash);
    write(1, [TOKEN]);
    hub.emit('verified', { address: OTHER });
    expect(await get(url)).toBe(chain[0]!.block.hash);
    hub.emit('verified', { address: TOKEN });
    expect(await get(url)).toBe(chain[1]!.block.hash);
    expect(computed).toEqual([`scoped ${TOKEN}`, `scoped ${TOKEN}`]);
  });

  it('computes every answer afresh once labels change, at the same head and for scoped answers too', async () => {
    const { get, write, computed, changeLabels } = setup();
    write(0);
    await get(`/api/v1/scoped/${TOKEN}`);
    await get(`/api/v1/unscoped/${TOKEN}`);
    write(1);
    await get(`/api/v1/scoped/${TOKEN}`);
    expect(computed).toHaveLength(2);
    changeLabels();
    await get(`/api/v1/scoped/${TOKEN}`);
    await get(`/api/v1/unscoped/${TOKEN}`);
    await get(`/api/v1/unscoped/${TOKEN}`);
    expect(computed).toEqual([`scoped ${TOKEN}`, `unscoped ${TOKEN}`, `scoped ${TOKEN}`, `unscoped ${TOKEN}`]);
  });
});

describe('ResponseCache.kept', () => {
  it('finds the answer kept at the current head and labels version at once, and none once either moves', async () => {
    let head: string | null = '0xaa';
    let version = 'v1';
    const cache = new ResponseCache(() => head, 1_000_000, null, () => version);
    const answer = { status: 200, headers: {}, body: '{"a":1}' };
    expect(cache.kept('/a')).toBeUndefined();
    await cache.answer('/a', async () => answer);
    expect(cache.kept('/a')).toBe(answer);
    expect(cache.kept('/b')).toBeUndefined();
    version = 'v2';
    expect(cache.kept('/a')).toBeUndefined();
    version = 'v1';
    head = '0xbb';
    expect(cache.kept('/a')).toBeUndefined();
    head = null;
    expect(cache.kept('/a')).toBeUndefined();
  });

  it('looks nothing up while the head is still to come', async () => {
    const cache = new ResponseCache(async () => '0xaa', 1_000_000);
    await cache.answer('/a', async () => ({ status: 200, headers: {}, body: '{}' }));
    expect(await cache.answer('/a', async () => ({ status: 200, headers: {}, body: '{"again":1}' }))).toMatchObject({ body: '{}' });
    expect(cache.kept('/a')).toBeUndefined();
  });
});
