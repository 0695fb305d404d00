/**
 * The framework floor: one route answering a fixed body, the exact bytes and content type
 * ChainLens answered for the same URL, in the cheapest way the framework offers. With
 * `same-head` (the judged floor) it also sends the headers the spec asks every ChainLens answer
 * to carry (`X-RateLimit-Limit`, `-Remaining`, `-Reset` with fixed values, and an `X-Request-Id`
 * of the same length from a counter), so both servers put the same bytes on the wire; without
 * it, the content type alone (shown beside the judged floor: what those headers cost).
 * Given an `rpcUrl` after `same-head`, the process also runs a started explorer, as `chainlens.ts`
 * runs it, to which no request is routed (a diagnostic: what the explorer's presence costs a
 * route that is not its own, apart from the request path).
 * Usage: `bare.ts <fastify|express> <content-type> <body | @file> [same-head [<rpcUrl>]]`.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { announce, listenExpress, listenFastify, parseFramework } from './listen.js';

const [frameworkArg, contentType, bodyArg, head, besideRpcUrl] = process.argv.slice(2);
if (contentType === undefined || bodyArg === undefined || (head !== undefined && head !== 'same-head')) {
  throw new Error('usage: bare.ts <fastify|express> <content-type> <body | @file> [same-head [<rpcUrl>]]');
}
// Imported only then, so the floor's own process loads none of ChainLens.
if (besideRpcUrl !== undefined) await (await import('./bench-explorer.js')).startBenchExplorer(besideRpcUrl);
// A large body comes by file: one command-line argument holds at most 128 KiB.
const body = bodyArg.startsWith('@') ? readFileSync(bodyArg.slice(1), 'utf8') : bodyArg;
const contentLength = String(Buffer.byteLength(body));
const PATH = '/api/v1/transaction/:hash';
const idPrefix = randomUUID().slice(0, 24);
let served = 0;
/** The request id: a UUID-shaped 36 characters, its last 12 a decimal counter (the cheapest to format). */
const requestId = () => idPrefix + String(served++).padStart(12, '0');

const url =
  parseFramework(frameworkArg) === 'fastify'
    ? await listenFastify((app) =>
        app.get(PATH, (_request, reply) => {
          if (head === undefined) reply.type(contentType).send(body);
          else {
            // One call a header: `reply.headers` would build an object and walk its keys first.
            reply
              .header('content-type', contentType)
              .header('x-ratelimit-limit', '1000000000')
              .header('x-ratelimit-remaining', '999999999')
              .header('x-ratelimit-reset', '1790000000')
              .header('x-request-id', requestId())
              .send(body);
          }
        }),
      )
    : await listenExpress((app) => {
        // The whole head in one `writeHead`, length included, then `end`: `res.send` would add
        // ETag and freshness work, and `res.set` formats each header, which the floor need not do.
        app.get(PATH, (_request, response) => {
          if (head === undefined) response.writeHead(200, ['content-type', contentType, 'content-length', contentLength]).end(body);
          else {
            response
              .writeHead(200, [
                'content-type', contentType,
                'x-ratelimit-limit', '1000000000',
                'x-ratelimit-remaining', '999999999',
                'x-ratelimit-reset', '1790000000',
                'x-request-id', requestId(),
                'content-length', contentLength,
              ])
              .end(body);
          }
        });
      });
announce(url);
