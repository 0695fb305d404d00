import type { Migration } from './migration.js';

/**
 * Users' webhooks, what each watches (addresses and token contracts, found by address while a
 * block is written) and the outbox of their deliveries. The outbox is written in the block's
 * transaction; a webhook's pending deliveries are read head first from a partial index, and a
 * delivery's lease (owner, until) lets one instance of a cluster send it at a time. `retracted`
 * marks a delivery whose `removed: true` notice is enqueued, so a second reorg never repeats it.
 */
export const webhooksMigration: Migration = {
  version: 21,
  name: 'webhooks',
  sql: /* sql */ `
CREATE TABLE webhooks (
  id                         uuid PRIMARY KEY,
  user_id                    uuid NOT NULL,
  url                        text NOT NULL,
  events                     text[] NOT NULL,
  description                text,
  secret                     text NOT NULL,
  previous_secret            text,
  previous_secret_expires_at int8,
  active                     boolean NOT NULL,
  disabled_reason            text,
  failing_since              int8,
  created_at                 int8 NOT NULL,
  updated_at                 int8 NOT NULL
);
CREATE INDEX webhooks_by_user ON webhooks (user_id, created_at DESC, id DESC);
CREATE TABLE webhook_subscriptions (
  webhook_id uuid NOT NULL REFERENCES webhooks ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('address', 'token')),
  address    bytea NOT NULL,
  PRIMARY KEY (webhook_id, kind, address)
);
CREATE INDEX webhook_subscriptions_by_address ON webhook_subscriptions (address, kind);
CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY,
  webhook_id       uuid NOT NULL REFERENCES webhooks ON DELETE CASCADE,
  sequence         int8 NOT NULL UNIQUE,
  event            text NOT NULL,
  block_number     int8 NOT NULL,
  block_hash       bytea NOT NULL,
  subject          jsonb NOT NULL,
  removed          boolean NOT NULL,
  retracted        boolean NOT NULL DEFAULT false,
  payload          text,
  status           text NOT NULL,
  attempts         int4 NOT NULL,
  last_status_code int4,
  last_error       text,
  created_at       int8 NOT NULL,
  next_attempt_at  int8,
  delivered_at     int8,
  lease_owner      text,
  lease_until      int8
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, sequence) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, sequence DESC);
CREATE INDEX webhook_deliveries_by_block ON webhook_deliveries (block_number) WHERE NOT removed AND NOT retracted;
`,
};
