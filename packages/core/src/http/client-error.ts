import type { Duplex } from 'node:stream';
import { HeadersTooLargeError, InvalidRequestError, type ExplorerError } from '../errors/index.js';
import { errorResponse } from './envelope.js';

/**
 * The raw HTTP bytes to answer a request Node rejected before any route ran (oversized headers
 * or URL, malformed request), so those answers carry the envelope too. Wire it to the HTTP
 * server's `clientError` event (Fastify: the `clientErrorHandler` option).
 */
export function clientErrorResponse(error: { code?: string }): string {
  const explorerError: ExplorerError =
    error.code === 'HPE_HEADER_OVERFLOW' ? new HeadersTooLargeError() : new InvalidRequestError('request', 'malformed HTTP request');
  const response = errorResponse(explorerError);
  const reason = explorerError.httpStatus === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  return (
    `HTTP/1.1 ${response.status} ${reason}\r\n` +
    `Content-Type: ${response.headers['content-type']}\r\n` +
    `Content-Length: ${Buffer.byteLength(response.body)}\r\n` +
    'Connection: close\r\n\r\n' +
    response.body
  );
}

/**
 * A `clientError` listener for a Node HTTP server (and Fastify's `clientErrorHandler` option):
 * answers with {@link clientErrorResponse} where the socket can still be written, then closes it.
 */
export function handleClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(error));
}
