import { type Explorer, hasRequestBody, type HttpResponse, InvalidRequestError, mountPointRedirect, PayloadTooLargeError } from '@chainlens/core';
import express, { type ErrorRequestHandler, type NextFunction, type Request, type Response, type Router } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * An Express router serving ChainLens. Mount it where you like; paths are relative to the
 * mount point. A body the host app already parsed is used as it is.
 *
 * @example
 * ```ts
 * const app = express();
 * app.use(chainlensRouter(explorer));
 * ```
 */
export function chainlensRouter(explorer: Explorer): Router {
  const kernel = explorer?.kernel;
  if (!kernel) throw new TypeError('@chainlens/adapter-express: an explorer from createExplorer() is required');
  const router = express.Router();

  // Not `async`: a request without a body to read is answered in its own tick, and an answer at
  // hand is written at once, as a bare route would.
  router.use((req: Request, res: Response, next: NextFunction) => {
    const redirect = mountPointRedirect(req.baseUrl, req.method, req.originalUrl);
    if (redirect) return write(res, redirect);
    // A body the host app's own parser read is not read again.
    if (req.body !== undefined || req.readableEnded || !hasRequestBody(req.headers)) return answer(req, res, undefined);
    kernel.readBody(req, req.headers).then((raw) => answer(req, res, raw)).catch(next);
  });
  const answer = (req: Request, res: Response, raw: Buffer | undefined) => {
    const response = kernel.respond({
      method: req.method,
      url: req.url,
      headers: req.headers,
      // Express works `req.ip` out of X-Forwarded-For through the app's `trust proxy` on every
      // read; trusting no proxy (its default) it is the socket's peer, read here directly.
      ip: (req.app.get('trust proxy') ? req.ip : req.socket.remoteAddress) ?? '',
      rawBody: raw,
      body: raw ? undefined : req.body,
    });
    if (response instanceof Promise) void response.then((answered) => write(res, answered));
    else write(res, response);
  };

  const onError: ErrorRequestHandler = (error: { status?: number; type?: string }, req, res, _next) => {
    const status = error.status ?? 500;
    const mapped = status === 413 ? new PayloadTooLargeError() : status < 500 ? new InvalidRequestError('request', 'malformed request') : error;
    write(res, kernel.errorResponse(mapped, { method: req.method, url: req.url }));
  };
  router.use(onError);
  return router;
}

/**
 * Writes the answer; a streamed body is piped with backpressure, and a client that goes away (or
 * a stream that fails, when the status is long sent) ends both sides.
 */
function write(res: Response, response: HttpResponse): void {
  if (!response.stream) {
    // The whole head in one `writeHead` (Node merges in what the host app set before): Express's
    // `res.set` formats and checks each header again on every answer. Framed by length, as
    // Fastify frames it: Node otherwise ends an HTTP/1.0 answer only by closing, and bytes a
    // client sent after its request could then run on into the body.
    const { body } = response;
    res.writeHead(response.status, headLines(response.headers, typeof body === 'string' ? Buffer.byteLength(body) : body.length)).end(body);
    return;
  }
  res.status(response.status).set(response.headers);
  pipeline(Readable.from(response.stream, { objectMode: false }), res).catch(() => res.destroy());
}

/** `headers` and the body's length as `writeHead`'s flat list of names and values. */
function headLines(headers: Readonly<Record<string, string>>, length: number): string[] {
  const lines: string[] = [];
  for (const name in headers) lines.push(name, headers[name]!);
  lines.push('content-length', String(length));
  return lines;
}

export default chainlensRouter;
export { attachChainlensSockets, type ChainlensSocketsOptions } from './sockets.js';
