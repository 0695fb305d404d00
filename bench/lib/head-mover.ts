import { announceBlock, type BlockBundle } from '@chainlens/core';
import { postgresCoordinator, postgresStorage } from '@chainlens/storage-postgres';
import { syntheticChain, type SyntheticChainOptions } from './synthetic-chain.js';

/** A chain that keeps growing while a row is measured, as a followed live chain does. */
export interface HeadMover {
  /** Appends one block a second until the returned function stops it and rolls the blocks back. */
  start(): () => Promise<number>;
  close(): Promise<void>;
}

/**
 * Writes the synthetic chain's next blocks into a loaded `schema`, one per `intervalMs`, through
 * `Storage.writeBlock`, and announces each on the schema's bus, as an indexing instance of a
 * cluster would: the server sees its head move (and its response cache start afresh for every
 * answer the block may change) as often as on a chain with that block time. Stopping rolls the
 * added blocks back, so a kept load stays as it was loaded.
 */
export async function createHeadMover(url: string, schema: string, chain: SyntheticChainOptions, maxBlocks: number, added: Partial<SyntheticChainOptions> = {}, intervalMs = 1_000): Promise<HeadMover> {
  // The generator is sequential (one random stream): walk to the load's end, keep what follows.
  // `added` shapes the new blocks only (the loaded ones are already stored).
  const next: BlockBundle[] = [];
  for (const bundle of syntheticChain({ ...chain, ...added, blocks: chain.blocks + maxBlocks })) {
    if (bundle.block.number >= BigInt(chain.blocks)) next.push(bundle);
  }
  const storage = postgresStorage({ connectionString: url, schema });
  await storage.init();
  // The one writer of the schema, like an indexing instance: it holds the lease it publishes on.
  const bus = postgresCoordinator({ connectionString: url, schema });
  if (!(await bus.acquireLease())) throw new Error(`another process holds the indexer lease of ${schema}`);
  const lastLoaded = BigInt(chain.blocks - 1);
  return {
    start() {
      let written = 0;
      let writing: Promise<void> = Promise.resolve();
      const timer = setInterval(() => {
        const bundle = next[written];
        if (!bundle) return;
        written++;
        writing = writing.then(async () => {
          await storage.writeBlock(bundle);
          await announceBlock(bus, bundle.block.number);
        });
      }, intervalMs);
      return async () => {
        clearInterval(timer);
        await writing;
        await storage.rollbackTo(lastLoaded);
        return written;
      };
    },
    close: async () => {
      await bus.close();
      await storage.close();
    },
  };
}
