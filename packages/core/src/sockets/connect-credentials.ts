import type { HttpRequest } from '../http/types.js';

/**
 * The upgrade request with credentials from the query string moved into the headers REST reads
 * them from: browsers cannot set headers on a WebSocket, so `?token=<JWT>` stands for
 * `Authorization: Bearer <JWT>` and `?apiKey=<key>` for `X-API-Key`. Headers the client did send
 * are kept; where both are given, the authenticator requires both to hold, as in REST.
 */
export function withQueryCredentials(request: HttpRequest): HttpRequest {
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  const token = query.get('token');
  const apiKey = query.get('apiKey');
  if (token === null && apiKey === null) return request;
  const headers = { ...request.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (apiKey !== null) headers['x-api-key'] = apiKey;
  return { ...request, headers };
}

/** The path of a request URL, without its query. */
export function pathOf(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}
