import type { Explorer, HttpRequest } from '@chainlens/core';
import { InvalidRequestError, PayloadTooLargeError } from '@chainlens/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

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
    const { kernel } = options.explorer ?? {};
    if (!kernel) throw new TypeError('@chainlens/adapter-fastify: the `explorer` option is required (from createExplorer())');
    const prefix = fastify.prefix;

    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: kernel.bodyLimit }, (_request, body, done) => done(null, body));

    fastify.setErrorHandler((error: FastifyError, _request, reply) => {
      const status = error.statusCode ?? 500;
      const mapped = status === 413 ? new PayloadTooLargeError() : status < 500 ? new InvalidRequestError('request', 'malformed request') : error;
      return write(reply, kernel.errorResponse(mapped));
    });

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const input: HttpRequest = {
        method: request.method,
        url: prefix && request.url.startsWith(prefix) ? request.url.slice(prefix.length) || '/' : request.url,
        headers: request.headers,
        ip: request.ip,
        rawBody: Buffer.isBuffer(request.body) ? request.body : undefined,
      };
      return write(reply, await kernel.handle(input));
    };
    fastify.route({ method: [...METHODS], url: '/', handler });
    fastify.route({ method: [...METHODS], url: '/*', handler });
  },
  { fastify: '5.x', name: '@chainlens/adapter-fastify', encapsulate: true },
);

function write(reply: FastifyReply, response: { status: number; headers: Record<string, string>; body: string }) {
  return reply.code(response.status).headers(response.headers).send(response.body);
}

export default chainlens;
