import { memoryStorage } from '@chainlens/storage-memory';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createExplorer } from '../../explorer.js';
import { asText } from '../../http/index.js';
import { ModuleHost } from '../../modules/index.js';
import { webhooksModule } from './webhooks-module.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The files of the folder others may import: what `docs/architecture.md`'s worked example says joins the feature to the explorer. */
const ENTRY_POINTS = ['features/webhooks/index.ts', 'features/webhooks/webhooks-module.ts', 'features/webhooks/webhook-config.ts'];

/** The files of core (tests aside) outside `features/webhooks/` that import a file inside it, with the file each imports. */
function importsIntoTheFolder(): { from: string; to: string }[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('features/webhooks/'));
  return files.flatMap((file) =>
    ts
      .preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true)
      .importedFiles.map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(SRC, resolve(SRC, dirname(file), name)).replace(/\.js$/, '.ts'))
      .filter((target) => target.startsWith('features/webhooks/'))
      .map((to) => ({ from: file, to })),
  );
}

describe('webhooks, a feature in one folder', () => {
  const explorer = createExplorer({ rpcUrl: 'http://127.0.0.1:1', storage: memoryStorage(), logger: pino({ level: 'silent' }) });
  afterAll(async () => (await explorer).close());

  it('is reached from outside only through its index, its module and its config slice', () => {
    const found = importsIntoTheFolder();
    expect(found.map(({ from }) => from)).toEqual(expect.arrayContaining(['explorer.ts', 'config.ts']));
    expect(found.filter(({ to }) => !ENTRY_POINTS.includes(to))).toEqual([]);
  });

  it('adds its routes through its module alone: the explorer serves under /account/webhooks exactly what the module registers', async () => {
    // Never started: nothing here asks the node.
    const served = await explorer;
    const alone = new ModuleHost({ logger: served.logger, storage: served.storage, writer: served.storage, chain: served.chain, hub: served.hub, clock: served.config.clock });
    alone.register(webhooksModule, { config: served.config.webhooks, services: served.services, registry: null, tracedThrough: async () => null, prunes: () => false });
    const registered = alone.apiRoutes.map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`).sort();
    expect(registered).toHaveLength(9);

    const document = JSON.parse(asText(await served.kernel.handle({ method: 'GET', url: '/api/v1/openapi.json', headers: {}, ip: '10.0.0.1' })).body) as { paths: Record<string, object> };
    const documented = Object.entries(document.paths)
      .filter(([path]) => path.includes('/account/webhooks'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(registered);
  });
});
