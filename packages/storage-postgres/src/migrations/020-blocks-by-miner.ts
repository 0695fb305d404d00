import type { Migration } from './migration.js';

/** The blocks an address mined, newest first, read from one index (Etherscan's `getminedblocks`). */
export const blocksByMinerMigration: Migration = {
  version: 20,
  name: 'blocks-by-miner',
  sql: /* sql */ `
CREATE INDEX blocks_by_miner ON blocks (miner, number DESC);
`,
};
