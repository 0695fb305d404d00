import type { Migration } from './migration.js';

/**
 * Verified contracts and verification jobs: operator data, not chain data, so no block write or
 * rollback touches them. Sources, settings and ABI are `json`, not `jsonb`: they are kept
 * verbatim (key order, and `\u0000` escapes that jsonb rejects) and never queried inside.
 */
export const verificationMigration: Migration = {
  version: 10,
  name: 'verification',
  sql: /* sql */ `
CREATE TABLE verified_contracts (
  address               bytea PRIMARY KEY,
  name                  text NOT NULL,
  path                  text NOT NULL,
  compiler_version      text NOT NULL,
  compiler_settings     json NOT NULL,
  sources               json NOT NULL,
  abi                   json NOT NULL,
  license               text,
  constructor_arguments bytea NOT NULL,
  runtime_match         text NOT NULL CHECK (runtime_match IN ('full', 'partial')),
  creation_match        text CHECK (creation_match IN ('full', 'partial')),
  verified_at           timestamptz NOT NULL
);
CREATE TABLE verification_jobs (
  guid       text PRIMARY KEY,
  kind       text NOT NULL CHECK (kind IN ('source', 'proxy')),
  address    bytea NOT NULL,
  status     text NOT NULL CHECK (status IN ('pending', 'verified', 'failed')),
  message    text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
`,
};
