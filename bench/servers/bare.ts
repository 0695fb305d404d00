/**
 * The framework floor: one route answering a fixed body, the exact bytes and content type
 * ChainLens answered for the same URL. With `same-head` it also sends the headers the spec asks
 * every ChainLens answer to carry (`X-RateLimit-Limit`, `-Remaining`, `-Reset` with fixed
 * values, and an `X-Request-Id` of the same shape from a counter), set at once as the adapter
 * sets them: what the framework costs for the whole response, head included, shown beside the
 * judged floor rather than instead of it.
 * Usage: `bare.ts <fastify|express> <content-type> <body | @file> [same-head]`.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { announce, listenExpress, listenFastify, parseFramework } from './listen.js';

const [frameworkArg, contentType, bodyArg, head] = process.argv.slice(2);
if (contentType === undefined || bodyArg === undefined || (head !== undefined && head !== 'same-head')) {
  throw new Error('usage: bare.ts <fastify|express> <content-type> <body | @file> [same-head]');
}
// A large body comes by file: one command-line argument holds at most 128 KiB.
const body = bodyArg.startsWith('@') ? readFileSync(bodyArg.slice(1), 'utf8') : bodyArg;
const PATH = '/api/v1/transaction/:hash';
const idPrefix = randomUUID().slice(0, 24);
let served = 0;
/** The `same-head` answer's headers: the content type and the spec's four. */
const headers = (): Record<string, string> => ({
  'content-type': contentType,
  'x-ratelimit-limit': '1000000000',
  'x-ratelimit-remaining': '999999999',
  'x-ratelimit-reset': '1790000000',
  'x-request-id': idPrefix + (served++).toString(16).padStart(12, '0'),
});

const url =
  parseFramework(frameworkArg) === 'fastify'
    ? await listenFastify((app) =>
        app.get(PATH, (_request, reply) => {
          if (head === undefined) reply.type(contentType).send(body);
          else reply.headers(headers()).send(body);
        }),
      )
    : await listenExpress((app) => {
        // set + end, as the adapter writes: `res.send` would add ETag and freshness work the
        // adapter never does, and the floor would no longer be a floor.
        app.get(PATH, (_request, response) => {
          if (head === undefined) response.set('content-type', contentType).end(body);
          else response.set(headers()).end(body);
        });
      });
announce(url);
