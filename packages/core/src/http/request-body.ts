import type { Readable } from 'node:stream';
import { InvalidRequestError, PayloadTooLargeError } from '../errors/index.js';

/** Bytes of a refused body discarded by default before its connection is given up: 64 MiB. */
export const DEFAULT_BODY_DRAIN_LIMIT = 64 * 1024 * 1024;

/** The size bounds of {@link readRequestBody}. */
export interface BodyLimits {
  /** Largest accepted body in bytes. */
  bodyLimit: number;
  /** Bytes of a refused body read and discarded before the connection is given up. */
  drainLimit: number;
}

/**
 * Whether a request announces a body (`Content-Length` or `Transfer-Encoding`): without either it
 * has none, and an adapter can answer without waiting on {@link readRequestBody}.
 */
export function hasRequestBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
}

/**
 * Reads a request body whole. A body over the limit is refused with {@link PayloadTooLargeError},
 * but only once it has been read and discarded (up to `drainLimit`): a client still sending when
 * the server closes its connection meets EPIPE or a reset and never reads the 413 (Node's
 * `fetch` among them). A body beyond `drainLimit`, by its `Content-Length` or as it comes, is
 * refused at once with the error's `unread` set, and its connection is closed after the answer.
 * `undefined` when there is no body.
 */
export function readRequestBody(request: Readable, headers: Record<string, string | string[] | undefined>, limits: BodyLimits): Promise<Buffer | undefined> {
  if (!hasRequestBody(headers)) return Promise.resolve(undefined);
  const declared = headers['content-length'];
  const drainLimit = Math.max(limits.drainLimit, limits.bodyLimit);
  if (declared !== undefined && Number(declared) > drainLimit) return Promise.reject(new PayloadTooLargeError({ unread: true }));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (done: () => void) => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      done();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limits.bodyLimit) chunks.push(chunk);
      else chunks.length = 0;
      if (size > drainLimit) {
        // Stop reading without destroying the request: that would take the socket, and the answer, with it.
        request.pause();
        settle(() => reject(new PayloadTooLargeError({ unread: true })));
      }
    };
    const onEnd = () => settle(() => (size > limits.bodyLimit ? reject(new PayloadTooLargeError()) : resolve(size === 0 ? undefined : Buffer.concat(chunks, size))));
    const onError = (error: Error) => settle(() => reject(error));
    // A client that goes away mid-body leaves nothing to answer; the framework sees the closed socket.
    const onClose = () => settle(() => reject(new InvalidRequestError('body', 'the request ended before its body')));
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
