import type { HttpRequest } from './types.js';

/**
 * The client's address. With no trusted proxies it is the socket's peer (what the adapter
 * reports): a client cannot choose it. Behind `trustedProxyHops` proxies that each append to
 * `X-Forwarded-For`, it is the entry that many places from the right, the last one a trusted
 * proxy wrote; entries left of it are the client's own claims and are ignored.
 */
export function clientIp(request: HttpRequest, trustedProxyHops: number): string {
  if (trustedProxyHops === 0) return request.ip;
  const header = request.headers['x-forwarded-for'];
  const chain = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return chain[chain.length - trustedProxyHops] ?? chain[0] ?? request.ip;
}
