import type { Migration } from './migration.js';

/**
 * Metadata profiles: operator data, not chain data, so no block write or rollback touches them.
 * A profile is read and replaced whole, so it is one jsonb document per address.
 */
export const metadataMigration: Migration = {
  version: 5,
  name: 'metadata',
  sql: /* sql */ `
CREATE TABLE metadata_profiles (
  address bytea PRIMARY KEY,
  profile jsonb NOT NULL
);
`,
};
