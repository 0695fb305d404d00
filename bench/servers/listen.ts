import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * The apps every benchmark server is built on. Bare and ChainLens rows share them, so the only
 * difference between two rows of one framework is the route.
 */
const HOST = '127.0.0.1';

export type Framework = 'fastify' | 'express';

/** The framework named on the command line; anything else is a usage error. */
export function parseFramework(value: string | undefined): Framework {
  if (value === 'fastify' || value === 'express') return value;
  throw new Error(`expected "fastify" or "express" as the first argument, got "${value}"`);
}

/** A default Fastify app (no logger), set up by `setup`, listening on a free port. Resolves its URL. */
export async function listenFastify(setup: (app: FastifyInstance) => unknown): Promise<string> {
  const app = Fastify();
  await setup(app);
  return app.listen({ host: HOST, port: 0 });
}

/** An Express app on `node:http`, set up by `setup`, listening on a free port. Resolves its URL. */
export async function listenExpress(setup: (app: Express) => void): Promise<string> {
  const app = express();
  app.disable('x-powered-by');
  setup(app);
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, resolve);
  });
  return `http://${HOST}:${(server.address() as AddressInfo).port}`;
}

/**
 * Tells the parent benchmark where this server listens (one JSON line on stdout) and exits when
 * the parent closes stdin, which also happens when the parent dies, so no server outlives a run.
 * Exiting outright is enough: the process holds nothing that needs flushing.
 */
export function announce(url: string, credentials?: Record<string, Record<string, string>>): void {
  process.stdin.on('end', () => process.exit(0)).resume();
  process.stdout.write(`${JSON.stringify({ url, credentials })}\n`);
}
