import type { Explorer, HttpResponse } from '@chainlens/core';
import { InvalidRequestError, PayloadTooLargeError } from '@chainlens/core';
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';

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

  router.use(express.raw({ type: () => true, limit: kernel.bodyLimit }));
  router.use(async (req: Request, res: Response) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
    const response = await kernel.handle({
      method: req.method,
      url: req.url,
      headers: req.headers,
      ip: req.ip ?? req.socket.remoteAddress ?? '',
      rawBody: raw,
      body: raw ? undefined : req.body,
    });
    write(res, response);
  });

  const onError: ErrorRequestHandler = (error: { status?: number; type?: string }, req, res, _next) => {
    const status = error.status ?? 500;
    const mapped = status === 413 ? new PayloadTooLargeError() : status < 500 ? new InvalidRequestError('request', 'malformed request') : error;
    write(res, kernel.errorResponse(mapped, { method: req.method, url: req.url }));
  };
  router.use(onError);
  return router;
}

function write(res: Response, response: HttpResponse): void {
  res.status(response.status).set(response.headers).end(response.body);
}

export default chainlensRouter;
export { attachChainlensSockets, type ChainlensSocketsOptions } from './sockets.js';
