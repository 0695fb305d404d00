import type { Migration } from './migration.js';

/**
 * Users and their API keys. Not chain data: no rollback or block write touches these tables.
 * `api_keys.user_id` has no foreign key, as the Storage contract (and the memory backend) does
 * not require a key's owner to exist. Key hashes are text, so a lookup with any string (not
 * only 64 hex digits) is a plain miss rather than a bytea input error.
 */
export const accountsMigration: Migration = {
  version: 2,
  name: 'accounts',
  sql: /* sql */ `
CREATE TABLE users (
  id            uuid PRIMARY KEY,
  email         text NOT NULL UNIQUE,
  name          text NOT NULL,
  password_hash text NOT NULL,
  roles         text[] NOT NULL,
  is_active     boolean NOT NULL,
  created_at    timestamptz NOT NULL
);

CREATE TABLE api_keys (
  id                    uuid PRIMARY KEY,
  user_id               uuid NOT NULL,
  name                  text NOT NULL,
  description           text,
  key_hash              text NOT NULL UNIQUE,
  prefix                text NOT NULL,
  scopes                text[] NOT NULL,
  expires_at            timestamptz,
  is_active             boolean NOT NULL,
  rate_limit_per_minute integer,
  created_at            timestamptz NOT NULL
);
-- listApiKeys: one user's keys, newest first, read in index order.
CREATE INDEX api_keys_by_user ON api_keys (user_id, created_at DESC, id DESC);
`,
};
