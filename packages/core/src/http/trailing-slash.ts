import type { Router } from './router.js';
import type { HttpRequest, HttpResponse } from './types.js';

/** Methods a redirect may answer: a client re-sends them without a body, so nothing is lost. */
const REDIRECTED = new Set(['GET', 'HEAD']);

function redirect(location: string): HttpResponse {
  return { status: 301, headers: { location, 'content-type': 'text/plain; charset=utf-8' }, body: `Moved to ${location}` };
}

/**
 * A browser's redirect (GET or HEAD asking for `text/html`) from a path no route matches to the
 * same path without its trailing slash when a route matches that (`/docs/`, `/graphql/`): the
 * pages' relative asset URLs resolve from there. The location is relative (`../docs`), so it holds
 * wherever ChainLens is mounted. `null` otherwise: API clients get the 404 they always got.
 */
export function trailingSlashRedirect(router: Router, request: Pick<HttpRequest, 'method' | 'headers'>, path: string, query: string): HttpResponse | null {
  if (path.length < 2 || !path.endsWith('/') || !REDIRECTED.has(request.method) || !acceptsHtml(request.headers.accept)) return null;
  const trimmed = path.slice(0, -1);
  if (!router.match(request.method, trimmed)) return null;
  return redirect(`../${trimmed.slice(trimmed.lastIndexOf('/') + 1)}${query}`);
}

function acceptsHtml(accept: string | string[] | undefined): boolean {
  return (Array.isArray(accept) ? accept.join(',') : (accept ?? '')).includes('text/html');
}

/**
 * The answer to a request for the mount point itself without its trailing slash (`/explorer`
 * when ChainLens is mounted at `/explorer`): a redirect to `/explorer/`, where the explorer
 * page's relative script and style URLs resolve under the mount point instead of beside it.
 * `null` for any other request, for other methods than GET and HEAD (a JSON-RPC POST to
 * `/explorer` is served as it is), and when mounted at the root.
 *
 * @param prefix - where ChainLens is mounted, without a trailing slash (`''` at the root)
 * @param method - the request's method
 * @param url - the request's whole URL as the server received it, query included
 */
export function mountPointRedirect(prefix: string, method: string, url: string): HttpResponse | null {
  if (!prefix || prefix === '/' || !REDIRECTED.has(method)) return null;
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (path !== prefix) return null;
  return redirect(`${prefix}/${queryStart === -1 ? '' : url.slice(queryStart)}`);
}
