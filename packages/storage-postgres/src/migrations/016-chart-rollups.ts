import type { Migration } from './migration.js';

/**
 * Chart rollups: what the blocks of each UTC hour and day add up to, kept by every block write
 * (two upserts) and taken back by rollbacks. A block row keeps what only its write could count
 * (its addresses new to the chain, and those not active earlier in its hour and its day), so a
 * rollback takes exactly that back; the rest it recounts from the rows it deletes. An address's
 * stats keep the timestamp of its latest block, and each write the one before it, which tells
 * the write who was active earlier in the bucket without another read. A stored chain's rollups
 * are counted here from its blocks, transactions and transfers; tokens' rollups start with the
 * blocks written after this migration.
 */
export const chartRollupsMigration: Migration = {
  version: 16,
  name: 'chart-rollups',
  sql: /* sql */ `
ALTER TABLE blocks
  ADD COLUMN new_address_count integer NOT NULL DEFAULT 0,
  ADD COLUMN hour_active_count integer NOT NULL DEFAULT 0,
  ADD COLUMN day_active_count integer NOT NULL DEFAULT 0;
ALTER TABLE address_stats ADD COLUMN last_timestamp bigint, ADD COLUMN previous_timestamp bigint;
CREATE TABLE chart_rollups (
  resolution       text NOT NULL,
  bucket           bigint NOT NULL,
  blocks           bigint NOT NULL,
  transactions     bigint NOT NULL,
  gas_used         numeric NOT NULL,
  gas_price_sum    numeric NOT NULL,
  new_contracts    bigint NOT NULL,
  token_transfers  bigint NOT NULL,
  new_addresses    bigint NOT NULL,
  active_addresses bigint NOT NULL,
  PRIMARY KEY (resolution, bucket)
) WITH (fillfactor = 70);
CREATE TABLE token_rollups (
  token      bytea NOT NULL,
  resolution text NOT NULL,
  bucket     bigint NOT NULL,
  transfers  bigint NOT NULL,
  holders    bigint NOT NULL,
  PRIMARY KEY (token, resolution, bucket)
) WITH (fillfactor = 70);

UPDATE address_stats s SET last_timestamp = b.timestamp FROM blocks b WHERE b.number = s.last_block;
UPDATE blocks b SET new_address_count = f.n
FROM (SELECT first_block, count(*) AS n FROM address_stats GROUP BY first_block) f WHERE b.number = f.first_block;
WITH entries AS (
  SELECT a.address, a.block_number, b.timestamp FROM address_transactions a JOIN blocks b ON b.number = a.block_number
), firsts AS (
  SELECT min(block_number) AS number, 'hour' AS resolution FROM entries GROUP BY address, timestamp - timestamp % 3600
  UNION ALL
  SELECT min(block_number), 'day' FROM entries GROUP BY address, timestamp - timestamp % 86400
)
UPDATE blocks b SET hour_active_count = c.hour, day_active_count = c.day
FROM (SELECT number, count(*) FILTER (WHERE resolution = 'hour') AS hour, count(*) FILTER (WHERE resolution = 'day') AS day FROM firsts GROUP BY number) c
WHERE b.number = c.number;

INSERT INTO chart_rollups
SELECT r.resolution, b.timestamp - b.timestamp % r.width, count(*), sum(b.transaction_count), sum(b.gas_used), 0, 0, 0,
  sum(b.new_address_count), sum(CASE WHEN r.resolution = 'hour' THEN b.hour_active_count ELSE b.day_active_count END)
FROM blocks b CROSS JOIN (VALUES ('hour', 3600), ('day', 86400)) r(resolution, width)
GROUP BY 1, 2;
UPDATE chart_rollups c SET gas_price_sum = t.prices, new_contracts = t.contracts
FROM (
  SELECT r.resolution, x.timestamp - x.timestamp % r.width AS bucket, sum(x.effective_gas_price) AS prices, count(x.contract_address) AS contracts
  FROM transactions x CROSS JOIN (VALUES ('hour', 3600), ('day', 86400)) r(resolution, width) GROUP BY 1, 2
) t
WHERE c.resolution = t.resolution AND c.bucket = t.bucket;
UPDATE chart_rollups c SET token_transfers = t.n
FROM (
  SELECT r.resolution, x.timestamp - x.timestamp % r.width AS bucket, count(*) AS n
  FROM token_transfers x CROSS JOIN (VALUES ('hour', 3600), ('day', 86400)) r(resolution, width) GROUP BY 1, 2
) t
WHERE c.resolution = t.resolution AND c.bucket = t.bucket;
`,
};
