import { InvalidRequestError } from '../errors/index.js';
import type { HttpRequest } from '../http/types.js';

/** RFC 6455 §4.1: 16 random bytes, base64. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;
/** RFC 7230 `token`: a subprotocol name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EDGE_WHITESPACE = /^[ \t]+|[ \t]+$/g;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Why an upgrade request is not a WebSocket handshake (RFC 6455 §4.2.1), or `null`. The gateway
 * refuses such a request itself, with the envelope, instead of leaving it to the transport
 * library, whose refusals are plain text.
 */
export function handshakeError(request: HttpRequest): InvalidRequestError | null {
  if (request.method !== 'GET') return new InvalidRequestError('method', 'a WebSocket upgrade uses GET');
  if (single(request.headers.upgrade)?.toLowerCase() !== 'websocket') return new InvalidRequestError('Upgrade', 'must be websocket');
  if (!KEY.test(single(request.headers['sec-websocket-key']) ?? '')) return new InvalidRequestError('Sec-WebSocket-Key', 'missing or not 16 bytes in base64');
  const version = Number(single(request.headers['sec-websocket-version']));
  if (version !== 13 && version !== 8) return new InvalidRequestError('Sec-WebSocket-Version', 'must be 13');
  const protocols = single(request.headers['sec-websocket-protocol']);
  if (protocols === undefined) return null;
  const names = protocols.split(',').map((name) => name.replace(EDGE_WHITESPACE, ''));
  const wellFormed = names.every((name) => TOKEN.test(name)) && new Set(names).size === names.length;
  return wellFormed ? null : new InvalidRequestError('Sec-WebSocket-Protocol', 'must be a comma-separated list of distinct tokens');
}
