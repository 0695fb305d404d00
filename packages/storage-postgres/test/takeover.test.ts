import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createExplorer, type Explorer } from '@chainlens/core';
import { indexedThrough, waitFor } from '@chainlens/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { postgresCoordinator, postgresStorage } from '../src/index.js';
import { bundleChild } from './child-bundle.js';
import { testDatabaseUrl, testSchemas } from './database.js';
import { contents, cursorOf, filledChain, indexUninterrupted } from './stored-chain.js';

const CHILD_SOURCE = fileURLToPath(new URL('./fixtures/index-forever.ts', import.meta.url));
/** The child's entry bundled (see `bundleChild`): each start of it costs a fraction of tsx's. */
let CHILD: string;
beforeAll(async () => {
  CHILD = await bundleChild(CHILD_SOURCE);
});
const schemas = testSchemas();

describe('leader takeover', () => {
  const chain = filledChain();

  it('when the indexing process is SIGKILLed mid-ingest, a serving instance takes over within 10 s and continues from its cursor', async () => {
    const url = await testDatabaseUrl();
    const schema = schemas.next();
    const child = spawn(process.execPath, ['--conditions=source', CHILD, chain.rpcUrl, url, schema, '--cluster'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = once(child, 'exit');
    let successor: Explorer | undefined;
    try {
      await once(child.stdout!, 'data');
      const options = { connectionString: url, schema };
      // The default cluster.leaseRetryMs (2 s): the takeover must fit in 10 s as shipped.
      successor = await createExplorer({ rpcUrl: chain.rpcUrl, storage: postgresStorage(options), coordinator: postgresCoordinator(options), logLevel: 'silent' });
      const storage = successor.storage;
      const written: bigint[] = [];
      const writeBlocks = storage.writeBlocks.bind(storage);
      storage.writeBlocks = async (bundles) => {
        await writeBlocks(bundles);
        written.push(...bundles.map((bundle) => bundle.block.number));
      };
      const heard: bigint[] = [];
      successor.hub.on('block', (bundle) => heard.push(bundle.block.number));
      await successor.start();
      await waitFor(() => heard.length >= 3, "the serving instance to hear the child's blocks");
      expect(successor.indexer.status.running).toBe(false);

      child.kill('SIGKILL');
      const killed = Date.now();
      await exited;
      const cursor = await cursorOf(schema);
      expect(cursor).toBeLessThan(chain.head);
      await waitFor(() => written.length > 0, 'the successor to write a block', 10_000);
      expect(Date.now() - killed).toBeLessThan(10_000);
      // A COMMIT the child sent just before it died may still land after the read above.
      expect([cursor + 1n, cursor + 2n]).toContain(written[0]);
      await waitFor(async () => (await cursorOf(schema)) === chain.head, 'the successor to reach the head', 60_000);
      expect(written).toEqual(Array.from({ length: Number(chain.head - written[0]!) + 1 }, (_, i) => written[0]! + BigInt(i)));
      // Traces follow the blocks in a pipeline of their own: the tables are compared once both are through the head.
      await waitFor(() => indexedThrough(successor!, chain.head), 'the successor to trace the head', 60_000);
    } finally {
      child.kill('SIGKILL');
      await successor?.close();
    }

    const clean = schemas.next();
    await indexUninterrupted(chain.rpcUrl, clean, chain.head);
    const [takenOver, reference] = await Promise.all([contents(schema), contents(clean)]);
    expect(takenOver.transactions).toHaveLength(3_000);
    for (const table of Object.keys(reference)) expect(takenOver[table], table).toEqual(reference[table]);
  }, 120_000);
});
