import {
  attachUpgrades,
  errorResponse,
  type Explorer,
  type HttpRequest,
  type HttpResponse,
  InvalidRequestError,
  mountPointRedirect,
  PayloadTooLargeError,
  webSocketServerOptions,
} from '@chainlens/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { WebSocketServer } from 'ws';

/** Options of the {@link chainlens} Fastify plugin. */
export interface ChainlensFastifyOptions {
  /** The explorer to serve, from `createExplorer()`. */
  explorer: Explorer;
  /** Where to mount it (Fastify's own `prefix` option); default the root. */
  prefix?: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/**
 * Serves ChainLens from a Fastify app. The plugin keeps its own encapsulated context: its body
 * parser and error handler do not leak into the host app.
 *
 * @example
 * ```ts
 * const app = Fastify();
 * await app.register(chainlens, { explorer });
 * ```
 */
export const chainlens = fp(
  async function chainlensPlugin(fastify: FastifyInstance, options: ChainlensFastifyOptions) {
    const { kernel, sockets } = options.explorer ?? {};
    if (!kernel) throw new TypeError('@chainlens/adapter-fastify: the `explorer` option is required (from createExplorer())');
    const prefix = fastify.prefix;
    const relative = (url: string) => (prefix && url.startsWith(prefix) ? url.slice(prefix.length) || '/' : url);

    fastify.removeAllContentTypeParsers();
    // The kernel reads bodies: Fastify's own parser closes the connection on a body over the
    // limit while the client is still sending, and the client never reads the 413.
    fastify.addContentTypeParser('*', (request: FastifyRequest, payload: IncomingMessage) => kernel.readBody(payload, request.headers));

    fastify.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode ?? 500;
      const mapped = status === 413 ? new PayloadTooLargeError() : status < 500 ? new InvalidRequestError('request', 'malformed request') : error;
      return write(reply, kernel.errorResponse(mapped, { method: request.method, url: relative(request.url) }));
    });

    // Not `async`: an answer at hand is written at once, as a bare route would, and one still
    // coming when it comes (the kernel never rejects); Fastify waits for the reply without a
    // promise of ours to follow.
    const handler = (request: FastifyRequest, reply: FastifyReply): void => {
      const response = mountPointRedirect(prefix, request.method, request.url) ?? kernel.respond(toInput(request));
      if (response instanceof Promise) void response.then((answer) => write(reply, answer));
      else void write(reply, response);
    };
    const toInput = (request: FastifyRequest): HttpRequest => ({
      method: request.method,
      url: relative(request.url),
      headers: request.headers,
      ip: request.ip,
      rawBody: Buffer.isBuffer(request.body) ? request.body : undefined,
    });

    // WebSocket upgrades never reach Fastify: they are served on the server's upgrade event, so
    // HTTP requests run no WebSocket hooks.
    const detach = attachUpgrades(sockets, fastify.server, new WebSocketServer(webSocketServerOptions(sockets, prefix)), prefix);
    fastify.addHook('preClose', (done) => {
      detach();
      done();
    });
    fastify.route({ method: [...METHODS], url: '/', handler });
    fastify.route({ method: [...METHODS], url: '/*', handler });
    // Methods without a route (TRACE, …) reach the kernel too, which answers the envelope's 404.
    fastify.setNotFoundHandler(handler);
  },
  { fastify: '5.x', name: '@chainlens/adapter-fastify', encapsulate: true },
);

/**
 * Fastify's `frameworkErrors` option: a URL Fastify cannot decode (`/%`) is answered with the
 * envelope's 400 too, like the answers of Node's `clientError` (`handleClientError`).
 *
 * @example
 * ```ts
 * const app = Fastify({ clientErrorHandler: handleClientError, frameworkErrors });
 * ```
 */
export function frameworkErrors(_error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void write(reply, errorResponse(new InvalidRequestError('url', 'malformed URL')));
}

/** Writes the answer; a streamed body is piped (Fastify destroys the stream, ending its reads, when the client goes away). */
function write(reply: FastifyReply, response: HttpResponse) {
  reply.code(response.status);
  // One call a header: `reply.headers` lists the keys in a new array first, on every request.
  for (const name in response.headers) reply.header(name, response.headers[name]);
  return reply.send(response.stream ? Readable.from(response.stream, { objectMode: false }) : response.body);
}

export default chainlens;
