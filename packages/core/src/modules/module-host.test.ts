import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createChainClient } from '../chain/chain-client.js';
import { createEventHub } from '../events/index.js';
import { defineRoute } from '../http/index.js';
import type { Storage } from '../storage/index.js';
import type { ExplorerModule } from './module.js';
import { ModuleHost } from './module-host.js';
import { Signal } from './signal.js';

function host(): ModuleHost {
  // No module here touches storage or the node: the host only hands them on.
  const storage = {} as Storage;
  return new ModuleHost({ logger: pino({ level: 'silent' }), storage, writer: storage, chain: createChainClient({ rpcUrl: 'http://127.0.0.1:1', timeoutMs: 1 }), hub: createEventHub(), clock: Date.now });
}

/** A module that records its hooks in `log` and exports what it was given, doubled. */
function recorder(name: string, log: string[], startMs = 0): ExplorerModule<{ value: number }, number> {
  return {
    name,
    register(app, { value }) {
      app.onStart(async () => {
        log.push(`${name} starting`);
        await new Promise((resolve) => setTimeout(resolve, startMs));
        log.push(`${name} started`);
      });
      app.onClose(() => log.push(`${name} closed`));
      return value * 2;
    },
  };
}

describe('ModuleHost', () => {
  it('answers what a module exports, so the next module can be handed it', () => {
    const app = host();
    const first = app.register(recorder('first', []), { value: 2 });
    expect(app.register(recorder('second', []), { value: first })).toBe(8);
  });

  it('refuses a module registered twice', () => {
    const app = host();
    app.register(recorder('twice', []), { value: 1 });
    expect(() => app.register(recorder('twice', []), { value: 1 })).toThrow('module twice is registered twice');
  });

  it('starts modules one after another in registration order, each awaited', async () => {
    const log: string[] = [];
    const app = host();
    app.register(recorder('slow', log, 20), { value: 1 });
    app.register(recorder('fast', log), { value: 1 });
    await app.start();
    expect(log).toEqual(['slow starting', 'slow started', 'fast starting', 'fast started']);
  });

  it('closes the last registered module first', async () => {
    const log: string[] = [];
    const app = host();
    app.register(recorder('indexing', log), { value: 1 });
    app.register(recorder('sockets', log), { value: 1 });
    await app.close();
    expect(log).toEqual(['sockets closed', 'indexing closed']);
  });

  it('keeps the routes, pages and response observers of every module in registration order', () => {
    const route = (path: string) => defineRoute({ method: 'GET', path, auth: 'none', summary: path, handler: () => null });
    const [a, b, page] = [route('/a'), route('/b'), route('/page')];
    const observer = () => {};
    const app = host();
    app.register({ name: 'first', register: (context) => context.route(a) }, undefined);
    app.register({ name: 'second', register: (context) => (context.page(page), context.route(b), context.observeResponses(observer)) }, undefined);
    expect(app.apiRoutes).toEqual([a, b]);
    expect(app.pageRoutes).toEqual([page]);
    expect(app.responseObservers).toEqual([observer]);
    expect(app.infrastructure.clock).toBe(Date.now);
  });

  it('hands the GraphQL fields of the modules before to the one that serves them, and refuses fields after', () => {
    const [a, b] = [{ typeDefs: 'extend type Query { a: String }', resolvers: {} }, { typeDefs: 'extend type Query { b: String }', resolvers: {} }];
    const app = host();
    app.register({ name: 'first', register: (context) => context.graphql(a) }, undefined);
    app.register({ name: 'second', register: (context) => context.graphql(b) }, undefined);
    expect(app.register({ name: 'graphql', register: (context) => context.takeGraphql() }, undefined)).toEqual([a, b]);
    expect(() => app.register({ name: 'late', register: (context) => context.graphql(a) }, undefined)).toThrow(
      'module late adds GraphQL fields after graphql built the schema: register it before graphql',
    );
  });
});

describe('Signal', () => {
  it('tells every listener, in the order they listened', () => {
    const signal = new Signal<string>();
    const heard: string[] = [];
    signal.listen((value) => heard.push(`a:${value}`));
    signal.listen((value) => heard.push(`b:${value}`));
    signal.emit('revoked');
    expect(heard).toEqual(['a:revoked', 'b:revoked']);
  });
});
