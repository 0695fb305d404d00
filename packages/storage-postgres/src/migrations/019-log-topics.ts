import type { Migration } from './migration.js';

/**
 * Logs by each topic position, for searches by topics without a contract (Etherscan's getLogs by
 * `topic0`…`topic3`): one B-tree per position on (topic, block, log index), so a topic's logs are
 * read in chain order and a page is cut off the index. Partial: the logs without a topic at a
 * position (most have fewer than four) cost that position's index nothing. Each log written pays
 * one entry per topic it has; docs/performance.md gives the size per million logs.
 */
export const logTopicsMigration: Migration = {
  version: 19,
  name: 'log-topics',
  sql: /* sql */ `
CREATE INDEX logs_by_topic0 ON logs (topic0, block_number, log_index) WHERE topic0 IS NOT NULL;
CREATE INDEX logs_by_topic1 ON logs (topic1, block_number, log_index) WHERE topic1 IS NOT NULL;
CREATE INDEX logs_by_topic2 ON logs (topic2, block_number, log_index) WHERE topic2 IS NOT NULL;
CREATE INDEX logs_by_topic3 ON logs (topic3, block_number, log_index) WHERE topic3 IS NOT NULL;
`,
};
