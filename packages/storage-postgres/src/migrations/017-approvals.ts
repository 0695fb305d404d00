import type { Migration } from './migration.js';

/**
 * Approval events (ERC-20 `Approval`, `ApprovalForAll`), written with their block and removed
 * with it. An owner's standing approvals are the latest per token, spender and kind, read from
 * one index in that order. A stored chain's approvals are decoded here from its logs, as
 * `approvalsOf` decodes them.
 */
export const approvalsMigration: Migration = {
  version: 17,
  name: 'approvals',
  sql: /* sql */ `
CREATE TABLE token_approvals (
  block_number      bigint NOT NULL,
  log_index         integer NOT NULL,
  transaction_index integer NOT NULL,
  transaction_hash  bytea NOT NULL,
  timestamp         bigint NOT NULL,
  token             bytea NOT NULL,
  owner             bytea NOT NULL,
  spender           bytea NOT NULL,
  kind              text NOT NULL,
  value             numeric(78,0) NOT NULL,
  PRIMARY KEY (block_number, log_index)
);
CREATE INDEX token_approvals_by_owner ON token_approvals (owner, token, spender, kind, block_number DESC, log_index DESC);

INSERT INTO token_approvals
SELECT l.block_number, l.log_index, l.transaction_index, t.hash, t.timestamp, l.address,
  substring(l.topic1 from 13), substring(l.topic2 from 13),
  CASE WHEN l.topic0 = '\\x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'::bytea THEN 'allowance' ELSE 'operator' END,
  (SELECT sum(get_byte(l.data, i) * 256::numeric ^ (31 - i)) FROM generate_series(0, 31) i)
FROM logs l JOIN transactions t ON t.block_number = l.block_number AND t.transaction_index = l.transaction_index
WHERE l.topic0 IN ('\\x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'::bytea, '\\x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31'::bytea)
  AND l.topic1 IS NOT NULL AND l.topic2 IS NOT NULL AND l.topic3 IS NULL AND length(l.data) = 32
  AND substring(l.topic1 from 1 for 12) = '\\x000000000000000000000000'::bytea
  AND substring(l.topic2 from 1 for 12) = '\\x000000000000000000000000'::bytea
  AND (l.topic0 = '\\x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'::bytea OR substring(l.data from 1 for 31) = '\\x00000000000000000000000000000000000000000000000000000000000000'::bytea AND get_byte(l.data, 31) <= 1);
`,
};
