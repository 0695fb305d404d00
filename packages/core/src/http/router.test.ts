import { describe, expect, it } from 'vitest';
import type { Route } from './route.js';
import { Router } from './router.js';

const route = (path: string, method: Route['method'] = 'GET') => ({ method, path, auth: 'none', summary: path, handler: () => null }) as Route;

describe('Router', () => {
  const table = [
    route('/api/v1/transaction/pending'),
    route('/api/v1/transaction/:hash'),
    route('/api/v1/transaction/:hash', 'POST'),
    route('/a/b/:y/:z'),
    route('/a/:x/c/d'),
    route('/p/:first/q'),
    route('/:second/k/q'),
  ];
  const router = new Router(table);
  const match = (path: string, method = 'GET') => {
    const found = router.match(method, path);
    return found && { path: found.route.path, method: found.route.method, params: found.params };
  };

  it('prefers a literal route, and of several matches the one with the most literal segments wherever they stand', () => {
    expect(match('/api/v1/transaction/pending')?.path).toBe('/api/v1/transaction/pending');
    expect(match('/api/v1/transaction/0xab')).toEqual({ path: '/api/v1/transaction/:hash', method: 'GET', params: { hash: '0xab' } });
    expect(match('/api/v1/transaction/0xab', 'POST')?.method).toBe('POST');
    // Three literals beat two, though the two-literal route's first literal comes earlier.
    expect(match('/a/b/c/d')).toEqual({ path: '/a/:x/c/d', method: 'GET', params: { x: 'b' } });
    expect(match('/a/b/e/f')).toEqual({ path: '/a/b/:y/:z', method: 'GET', params: { y: 'e', z: 'f' } });
    // Equally literal: the earlier row of the table wins.
    expect(match('/p/k/q')?.path).toBe('/p/:first/q');
  });

  it('takes no empty segment as a parameter, decodes parameters, and answers null for other methods and shapes', () => {
    expect(match('/api/v1/transaction/')).toBeNull();
    expect(match('/api/v1/transaction/a%20b')?.params).toEqual({ hash: 'a b' });
    expect(match('/api/v1/transaction/%E0%A4%A')?.params).toEqual({ hash: '%E0%A4%A' });
    expect(match('/api/v1/transaction/0xab', 'DELETE')).toBeNull();
    expect(match('/api/v1/transaction/0xab/extra')).toBeNull();
  });

  it('keeps the match of a path asked again, frozen, and still matches every path once it has started afresh', () => {
    const first = router.match('GET', '/api/v1/transaction/0xcd');
    expect(router.match('GET', '/api/v1/transaction/0xcd')).toBe(first);
    expect(Object.isFrozen(first!.params)).toBe(true);
    expect(router.match('POST', '/api/v1/transaction/0xcd')).not.toBe(first);
    // More paths than are kept at once: each still finds its own route and parameters.
    for (let i = 0; i < 10_000; i++) expect(router.match('GET', `/api/v1/transaction/0x${i}`)?.params).toEqual({ hash: `0x${i}` });
    expect(match('/api/v1/transaction/0xcd')).toEqual({ path: '/api/v1/transaction/:hash', method: 'GET', params: { hash: '0xcd' } });
    // A long path is matched but not kept.
    const long = `/api/v1/transaction/0x${'a'.repeat(300)}`;
    expect(router.match('GET', long)).not.toBe(router.match('GET', long));
  });

  it('refuses a duplicate row', () => {
    expect(() => new Router([route('/x/:a'), route('/x/:b')])).toThrow(/Duplicate route GET \/x\/:b/);
    expect(() => new Router([route('/x'), route('/x')])).toThrow(/Duplicate route GET \/x/);
  });
});
