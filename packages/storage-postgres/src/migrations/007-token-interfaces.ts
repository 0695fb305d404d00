import type { Migration } from './migration.js';

/**
 * The ERC-165 interfaces a token contract declares, read with its other metadata. Tokens read
 * before this migration are marked unread, so the metadata indexer reads them again, interfaces
 * included.
 */
export const tokenInterfacesMigration: Migration = {
  version: 7,
  name: 'token-interfaces',
  sql: /* sql */ `
ALTER TABLE tokens ADD COLUMN interfaces text[] NOT NULL DEFAULT '{}';
UPDATE tokens SET metadata_read = false WHERE metadata_read;
`,
};
