import { useEffect, useState } from 'preact/hooks';

/**
 * The page's routes live in the URL's fragment (`#/tx/0x…`), so they never collide with the
 * server's own paths (`/api`, `/docs`, `/graphql`, `/ws`, `/metrics`, JSON-RPC at `POST /`) and a
 * link works wherever ChainLens is mounted.
 */
export type Route =
  | { name: 'home' }
  | { name: 'blocks' }
  | { name: 'transactions' }
  | { name: 'block'; number: string }
  | { name: 'transaction'; hash: string }
  | { name: 'address'; address: string }
  | { name: 'token'; address: string }
  | { name: 'validators' }
  | { name: 'charts' }
  | { name: 'search'; q: string }
  | { name: 'bad-query'; what: string; value: string }
  | { name: 'not-found'; path: string };

const BLOCK_NUMBER = /^(0|[1-9]\d{0,19})$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** What a well-formed query is, by its shape alone. */
export const shapes = {
  blockNumber: (value: string) => BLOCK_NUMBER.test(value),
  hash: (value: string) => HASH.test(value),
  address: (value: string) => ADDRESS.test(value),
};

/** The route a fragment (`#/block/12`) names; malformed parameters are a bad query, unknown paths not found. */
export function parseRoute(fragment: string): Route {
  const [path = '', search = ''] = fragment.replace(/^#/, '').split('?', 2);
  const [, first = '', second, ...rest] = path.split('/');
  const value = second === undefined ? undefined : safeDecode(second);
  if (rest.length > 0) return { name: 'not-found', path };
  if (value === undefined) {
    if (first === '') return { name: 'home' };
    if (first === 'blocks') return { name: 'blocks' };
    if (first === 'txs') return { name: 'transactions' };
    if (first === 'validators') return { name: 'validators' };
    if (first === 'charts') return { name: 'charts' };
    if (first === 'search') return { name: 'search', q: new URLSearchParams(search).get('q')?.trim() ?? '' };
    return { name: 'not-found', path };
  }
  if (first === 'block') return shapes.blockNumber(value) ? { name: 'block', number: value } : { name: 'bad-query', what: 'block number', value };
  if (first === 'tx') return shapes.hash(value) ? { name: 'transaction', hash: value.toLowerCase() } : { name: 'bad-query', what: 'transaction hash', value };
  if (first === 'address') return shapes.address(value) ? { name: 'address', address: value.toLowerCase() } : { name: 'bad-query', what: 'address', value };
  if (first === 'token') return shapes.address(value) ? { name: 'token', address: value.toLowerCase() } : { name: 'bad-query', what: 'token address', value };
  return { name: 'not-found', path };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The current route; follows the fragment as links and the history change it. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}

/** Links to every page. */
export const href = {
  home: () => '#/',
  blocks: () => '#/blocks',
  transactions: () => '#/txs',
  validators: () => '#/validators',
  charts: () => '#/charts',
  block: (number: string | number | bigint) => `#/block/${number}`,
  transaction: (hash: string) => `#/tx/${hash}`,
  address: (address: string) => `#/address/${address}`,
  token: (address: string) => `#/token/${address}`,
  search: (q: string) => `#/search?q=${encodeURIComponent(q)}`,
};

/** Goes to `fragment` in place of the current entry (a search that found one page), so Back skips it. */
export function replaceRoute(fragment: string): void {
  history.replaceState(null, '', fragment);
  dispatchEvent(new HashChangeEvent('hashchange'));
}
