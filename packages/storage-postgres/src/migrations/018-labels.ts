import type { Migration } from './migration.js';

/**
 * Address labels: public ones (operator data) with a version raised in the statement that
 * changes one, so a cache keyed by it never outlives a change, and each user's private ones (a
 * watch list). Neither is chain data: no block write or rollback touches them. A label's search
 * key is its text lowercased by the writer, compared bytewise (C collation) so that a prefix is
 * an index range and the order is code point order on every server.
 */
export const labelsMigration: Migration = {
  version: 18,
  name: 'labels',
  sql: /* sql */ `
CREATE TABLE address_labels (
  address    bytea PRIMARY KEY,
  label      text NOT NULL,
  label_key  text COLLATE "C" NOT NULL,
  category   text,
  note       text,
  updated_at text NOT NULL
);
CREATE INDEX address_labels_by_key ON address_labels (label_key, address);
CREATE TABLE label_state (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version   bigint NOT NULL DEFAULT 0
);
INSERT INTO label_state DEFAULT VALUES;
CREATE TABLE private_labels (
  user_id    uuid NOT NULL,
  address    bytea NOT NULL,
  label      text NOT NULL,
  note       text,
  created_at text COLLATE "C" NOT NULL,
  updated_at text NOT NULL,
  PRIMARY KEY (user_id, address)
);
`,
};
