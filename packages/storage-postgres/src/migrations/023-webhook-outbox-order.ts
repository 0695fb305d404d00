import type { Migration } from './migration.js';

/**
 * A webhook's pending deliveries are claimed in block order, then sequence: the internal
 * transfers the trace pipeline enqueues after a block still go before the next block's
 * deliveries. The partial index of migration 21 gives way to one in that order. Deliveries done
 * with are found by age for the outbox's retention (delivered ones by their delivery, failed
 * ones by their creation). Idempotent, as a schema whose record of later migrations was lost
 * runs them again.
 */
export const webhookOutboxOrderMigration: Migration = {
  version: 23,
  name: 'webhook-outbox-order',
  sql: /* sql */ `
DROP INDEX IF EXISTS webhook_deliveries_pending;
CREATE INDEX IF NOT EXISTS webhook_deliveries_pending_by_block ON webhook_deliveries (webhook_id, block_number, sequence) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_settled ON webhook_deliveries ((coalesce(delivered_at, created_at))) WHERE status <> 'pending';
`,
};
