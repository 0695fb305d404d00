/**
 * The framework floor: one route answering a fixed body, the exact bytes and content type
 * ChainLens answered for the same URL. Usage: `bare.ts <fastify|express> <content-type> <body | @file>`.
 */
import { readFileSync } from 'node:fs';
import { announce, listenExpress, listenFastify, parseFramework } from './listen.js';

const [frameworkArg, contentType, bodyArg] = process.argv.slice(2);
if (contentType === undefined || bodyArg === undefined) throw new Error('usage: bare.ts <fastify|express> <content-type> <body | @file>');
// A large body comes by file: one command-line argument holds at most 128 KiB.
const body = bodyArg.startsWith('@') ? readFileSync(bodyArg.slice(1), 'utf8') : bodyArg;
const PATH = '/api/v1/transaction/:hash';

const url =
  parseFramework(frameworkArg) === 'fastify'
    ? await listenFastify((app) => app.get(PATH, (_request, reply) => reply.type(contentType).send(body)))
    : await listenExpress((app) => {
        // set + end, as the adapter writes: `res.send` would add ETag and freshness work the
        // adapter never does, and the floor would no longer be a floor.
        app.get(PATH, (_request, response) => {
          response.set('content-type', contentType).end(body);
        });
      });
announce(url);
