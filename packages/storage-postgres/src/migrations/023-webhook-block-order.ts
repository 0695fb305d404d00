import type { Migration } from './migration.js';

/**
 * A webhook's pending deliveries are claimed in block order, then sequence: the internal
 * transfers the trace pipeline enqueues after a block still go before the next block's
 * deliveries. The partial index of migration 21 gives way to one in that order.
 */
export const webhookBlockOrderMigration: Migration = {
  version: 23,
  name: 'webhook-block-order',
  sql: /* sql */ `
DROP INDEX webhook_deliveries_pending;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, block_number, sequence) WHERE status = 'pending';
`,
};
