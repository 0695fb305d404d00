import { approvalProblem, bucketOf, contractCreationProblem, internalTransactionProblem, pairEventProblem, type BlockBundle, type Hex, type IndexerCursor, type StoredInternalTransaction, type StoredLog, type StoredTokenTransfer, type StoredTransaction } from '@chainlens/core';
import type { PoolClient } from 'pg';
import { addressCounts, addressRows } from './addresses.js';
import { lockChainState } from './chain-state.js';
import { holderChanges, tokenCounts, transfersFromEnd } from './token-holders.js';
import { byteaArray, integerArray, toBytea, toDecimal, toNullableDecimal } from './codec.js';
import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

/**
 * The one statement that writes a block, in one round trip: a set-based INSERT per table
 * (`unnest` of one array per column), then address stats, totals and the cursor. Address stats
 * are an upsert: its conflict check always walks the primary key, whatever the planner knows
 * about the table. A returned row is a new account exactly when its first block is this one
 * (a stored row's first block is below it). Parameters, in the order {@link prepareBundle}
 * builds them: $1–$15 the block, $16–$34 transaction columns, $35–$42 log columns, $43–$45
 * address rows, $46–$47 per-address counts, $48–$49 transaction and contract counts, $50–$60
 * token transfer columns (their timestamp is the block's, $4), $61–$63 holder balance changes,
 * $64–$66 per-token transfer counts, $67–$71 pair columns, $72–$75 pair sync columns and
 * $76–$81 pair swap columns (syncs and swaps take the block's timestamp), $82–$86 contract
 * creation columns, $87 the block's transaction hashes concatenated, $88–$98 internal transaction
 * columns (their timestamp is the block's), $99 the address rows' later rows in their block,
 * $100–$101 the block's hour and day buckets, $102 its transactions' effective gas prices
 * summed, $103 its token transfer count, $104–$111 approval columns (their timestamp is the
 * block's), $112 each token transfer's count of later transfers of its token in the block (its
 * ordinal is the token's transfer count after the block less that), $113 each log's place among
 * the block's logs of its contract, from 1. A holder row's RETURNING balance less its change is its balance before, so the
 * statement itself sees who starts or stops holding; an address stats row keeps its previous
 * block's timestamp, so the statement sees which addresses are active for the first time in the
 * block's hour and day. Rollups add the block to its hour and day (two upserts) and each token it
 * moved to the token's.
 */
export function writeBlockStatement(t: Tables): Statement {
  const block = `INSERT INTO ${t.blocks} (number, hash, parent_hash, timestamp, miner, gas_used, gas_limit,
      base_fee_per_gas, difficulty, size, state_root, transactions_root, receipts_root, extra_data, transaction_count,
      transaction_hashes, new_address_count, hour_active_count, day_active_count)
    SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $87, a.new, a.hour, a.day FROM activity a`;
  const transactions = `INSERT INTO ${t.transactions} (block_number, block_hash, hash, transaction_index, timestamp,
      from_address, to_address, value, gas, gas_price, max_fee_per_gas, max_priority_fee_per_gas, nonce, input, type,
      status, gas_used, cumulative_gas_used, effective_gas_price, contract_address, logs_bloom)
    SELECT $1::int8, $2::bytea, u.*
    FROM unnest($16::bytea[], $17::int4[], $18::int8[], $19::bytea[], $20::bytea[], $21::numeric[], $22::numeric[],
      $23::numeric[], $24::numeric[], $25::numeric[], $26::numeric[], $27::bytea[], $28::int2[], $29::int2[],
      $30::numeric[], $31::numeric[], $32::numeric[], $33::bytea[], $34::bytea[]) AS u`;
  // Numbered after each contract's highest ordinal before this block: one probe of
  // logs_by_address_seq per contract the block's logs name (the statement reads the table as it
  // was before it ran).
  const logs = `INSERT INTO ${t.logs} (block_number, log_index, transaction_index, address, topic0, topic1, topic2,
      topic3, data, address_seq)
    SELECT $1::int8, u.log_index, u.transaction_index, u.address, u.topic0, u.topic1, u.topic2, u.topic3, u.data,
      coalesce(c.last, 0) + u.in_block
    FROM unnest($35::int4[], $36::int4[], $37::bytea[], $38::bytea[], $39::bytea[], $40::bytea[], $41::bytea[],
      $42::bytea[], $113::int8[]) AS u(log_index, transaction_index, address, topic0, topic1, topic2, topic3, data, in_block)
    JOIN (
      SELECT d.address, (SELECT max(p.address_seq) FROM ${t.logs} p WHERE p.address = d.address) AS last
      FROM (SELECT DISTINCT address FROM unnest($37::bytea[]) AS a(address)) d
    ) c ON c.address = u.address`;
  // Numbered from the token's transfer count after this block, which the tokens upsert returns.
  const tokenTransfers = `INSERT INTO ${t.tokenTransfers} (block_number, timestamp, log_index, batch_index,
      transaction_hash, transaction_index, token, standard, operator, from_address, to_address, value, token_id, token_seq)
    SELECT $1::int8, $4::int8, u.log_index, u.batch_index, u.transaction_hash, u.transaction_index, u.token, u.standard,
      u.operator, u.from_address, u.to_address, u.value, u.token_id, k.transfer_count - u.from_end
    FROM unnest($50::int4[], $51::int4[], $52::bytea[], $53::int4[], $54::bytea[], $55::text[], $56::bytea[],
      $57::bytea[], $58::bytea[], $59::numeric[], $60::numeric[], $112::int8[])
      AS u(log_index, batch_index, transaction_hash, transaction_index, token, standard, operator, from_address, to_address,
        value, token_id, from_end)
    JOIN tokens k ON k.address = u.token`;
  const holders = `INSERT INTO ${t.tokenHolders} AS h (token, holder, balance, first_seen, last_block, last_activity)
    SELECT u.token, u.holder, u.delta, $4, $1, $4 FROM unnest($61::bytea[], $62::bytea[], $63::numeric[]) AS u(token, holder, delta)
    ON CONFLICT (token, holder) DO UPDATE
      SET balance = h.balance + excluded.balance, last_block = excluded.last_block, last_activity = excluded.last_activity
    RETURNING h.token, h.holder, h.balance`;
  const tokens = `INSERT INTO ${t.tokens} AS k (address, standard, first_block, transfer_count, holder_count)
    SELECT u.token, u.standard, $1, u.transfers, coalesce(c.change, 0)
    FROM unnest($64::bytea[], $65::text[], $66::int8[]) AS u(token, standard, transfers)
    LEFT JOIN holder_changes c ON c.token = u.token
    ON CONFLICT (address) DO UPDATE
      SET transfer_count = k.transfer_count + excluded.transfer_count, holder_count = k.holder_count + excluded.holder_count
    RETURNING k.address, k.holder_count, k.transfer_count`;
  const chartRollups = `INSERT INTO ${t.chartRollups} AS r (resolution, bucket, blocks, transactions, gas_used, gas_price_sum,
      new_contracts, token_transfers, new_addresses, active_addresses)
    SELECT v.resolution, v.bucket, 1, $15, $6, $102, $49, $103, a.new, v.active
    FROM activity a, LATERAL (VALUES ('hour', $100::int8, a.hour), ('day', $101::int8, a.day)) AS v(resolution, bucket, active)
    ON CONFLICT (resolution, bucket) DO UPDATE SET blocks = r.blocks + 1, transactions = r.transactions + excluded.transactions,
      gas_used = r.gas_used + excluded.gas_used, gas_price_sum = r.gas_price_sum + excluded.gas_price_sum,
      new_contracts = r.new_contracts + excluded.new_contracts, token_transfers = r.token_transfers + excluded.token_transfers,
      new_addresses = r.new_addresses + excluded.new_addresses, active_addresses = r.active_addresses + excluded.active_addresses`;
  const tokenRollups = `INSERT INTO ${t.tokenRollups} AS r (token, resolution, bucket, transfers, holders)
    SELECT k.address, v.resolution, v.bucket, u.transfers, k.holder_count
    FROM tokens k JOIN unnest($64::bytea[], $66::int8[]) AS u(token, transfers) ON u.token = k.address
    CROSS JOIN (VALUES ('hour', $100::int8), ('day', $101::int8)) AS v(resolution, bucket)
    ON CONFLICT (token, resolution, bucket) DO UPDATE SET transfers = r.transfers + excluded.transfers, holders = excluded.holders`;
  const approvals = `INSERT INTO ${t.tokenApprovals} (block_number, timestamp, log_index, transaction_index, transaction_hash, token, owner,
      spender, kind, value)
    SELECT $1::int8, $4::int8, u.*
    FROM unnest($104::int4[], $105::int4[], $106::bytea[], $107::bytea[], $108::bytea[], $109::bytea[], $110::text[],
      $111::numeric[]) AS u`;
  const pairs = `INSERT INTO ${t.dexPairs} (block_number, log_index, address, factory, token0, token1)
    SELECT $1::int8, u.* FROM unnest($67::int4[], $68::bytea[], $69::bytea[], $70::bytea[], $71::bytea[]) AS u`;
  const pairSyncs = `INSERT INTO ${t.pairSyncs} (block_number, log_index, pair, timestamp, reserve0, reserve1)
    SELECT $1::int8, u.log_index, u.pair, $4::int8, u.reserve0, u.reserve1
    FROM unnest($72::int4[], $73::bytea[], $74::numeric[], $75::numeric[]) AS u(log_index, pair, reserve0, reserve1)`;
  const pairSwaps = `INSERT INTO ${t.pairSwaps} (block_number, log_index, pair, timestamp, amount0_in, amount1_in, amount0_out, amount1_out)
    SELECT $1::int8, u.log_index, u.pair, $4::int8, u.amount0_in, u.amount1_in, u.amount0_out, u.amount1_out
    FROM unnest($76::int4[], $77::bytea[], $78::numeric[], $79::numeric[], $80::numeric[], $81::numeric[])
      AS u(log_index, pair, amount0_in, amount1_in, amount0_out, amount1_out)`;
  const contracts = `INSERT INTO ${t.contractCreations} (block_number, transaction_index, trace_index, address, creator, transaction_hash)
    SELECT $1::int8, u.* FROM unnest($82::int4[], $83::int4[], $84::bytea[], $85::bytea[], $86::bytea[]) AS u`;
  const internalTransactions = `INSERT INTO ${t.internalTransactions} (block_number, timestamp, transaction_index, trace_index,
      trace_id, transaction_hash, type, from_address, to_address, value, gas, gas_used, error)
    SELECT $1::int8, $4::int8, u.*
    FROM unnest($88::int4[], $89::int4[], $90::text[], $91::bytea[], $92::text[], $93::bytea[], $94::bytea[],
      $95::numeric[], $96::numeric[], $97::numeric[], $98::text[]) AS u`;
  // Numbered from the address's count after this block, which the stats upsert returns.
  const entries = `INSERT INTO ${t.addressTransactions} (address, block_number, transaction_index, seq)
    SELECT u.address, u.block_number, u.transaction_index, s.transaction_count - u.from_end
    FROM unnest($43::bytea[], $44::int8[], $45::int4[], $99::int8[]) AS u(address, block_number, transaction_index, from_end)
    JOIN stats s ON s.address = u.address`;
  return {
    name: 'chainlens_write_block',
    text: `WITH transactions AS (${transactions}),
      logs AS (${logs}),
      holders AS (${holders}),
      holder_changes AS (${holderCountChanges('holders', '$61', '$62', '$63')}),
      tokens AS (${tokens}),
      token_transfers AS (${tokenTransfers}),
      token_rollups AS (${tokenRollups}),
      approvals AS (${approvals}),
      pairs AS (${pairs}),
      pair_syncs AS (${pairSyncs}),
      pair_swaps AS (${pairSwaps}),
      contracts AS (${contracts}),
      internal_transactions AS (${internalTransactions}),
      stats AS (
        INSERT INTO ${t.addressStats} AS s (address, transaction_count, first_block, last_block, last_timestamp)
        SELECT u.address, u.transaction_count, $1, $1, $4
        FROM unnest($46::bytea[], $47::int8[]) AS u(address, transaction_count)
        ON CONFLICT (address) DO UPDATE
          SET transaction_count = s.transaction_count + excluded.transaction_count, last_block = excluded.last_block,
            last_timestamp = excluded.last_timestamp, previous_timestamp = s.last_timestamp
        RETURNING address, transaction_count, first_block, previous_timestamp
      ),
      activity AS (
        SELECT count(*) FILTER (WHERE first_block = $1) AS new,
          count(*) FILTER (WHERE first_block = $1 OR previous_timestamp IS NULL OR previous_timestamp < $100) AS hour,
          count(*) FILTER (WHERE first_block = $1 OR previous_timestamp IS NULL OR previous_timestamp < $101) AS day
        FROM stats
      ),
      block AS (${block}),
      chart_rollups AS (${chartRollups}),
      entries AS (${entries})
    UPDATE ${t.chainState} SET cursor_number = $1, cursor_hash = $2, traced_number = coalesce(traced_number, $1 - 1),
      total_transactions = total_transactions + $48,
      total_contracts = total_contracts + $49,
      total_accounts = total_accounts + (SELECT new FROM activity)`,
  };
}

/**
 * Per token, how many holders a balance change made (+1) or unmade (-1): rows of `changed`
 * (token, holder, new balance) joined with the changes applied to them.
 */
export function holderCountChanges(changed: string, tokens: string, holders: string, deltas: string): string {
  return `SELECT n.token, sum(CASE WHEN n.balance > 0 AND n.balance - u.delta <= 0 THEN 1
        WHEN n.balance <= 0 AND n.balance - u.delta > 0 THEN -1 ELSE 0 END) AS change
      FROM ${changed} n
      JOIN unnest(${tokens}::bytea[], ${holders}::bytea[], ${deltas}::numeric[]) AS u(token, holder, delta)
        ON u.token = n.token AND u.holder = n.holder
      GROUP BY n.token`;
}

/** The statements of {@link writeBlock}. */
export interface WriteStatements {
  lockChainState: Statement;
  writeBlock: Statement;
}

/** A bundle checked against itself, with the parameters of {@link writeBlockStatement}. */
export interface PreparedBundle {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  values: unknown[];
}

/**
 * Checks that the bundle is consistent in itself (every transaction and log belongs to the
 * block, indexes ascend, each log names a transaction of the bundle at its index: logs find
 * their transaction by block and index when read back) and builds the write's parameters.
 * Pure: runs before any connection is taken.
 */
export function prepareBundle(bundle: BlockBundle): PreparedBundle {
  checkBundle(bundle);
  const { block, transactions, logs, tokenTransfers, pairs, pairSyncs, pairSwaps, approvals, contracts, internalTransactions } = bundle;
  const txColumn = (pick: (tx: StoredTransaction) => Hex | null) => byteaArray(transactions.map(pick));
  const txNumbers = (pick: (tx: StoredTransaction) => bigint | number | null) => integerArray(transactions.map(pick));
  const topic = (i: number) => byteaArray(logs.map((log: StoredLog) => log.topics[i] ?? null));
  const transferColumn = (pick: (transfer: StoredTokenTransfer) => Hex | null) => byteaArray(tokenTransfers.map(pick));
  const transferNumbers = (pick: (transfer: StoredTokenTransfer) => bigint | number | null) => integerArray(tokenTransfers.map(pick));
  const internalColumn = (pick: (internal: StoredInternalTransaction) => Hex | null) => byteaArray(internalTransactions.map(pick));
  const internalNumbers = (pick: (internal: StoredInternalTransaction) => bigint | number) => integerArray(internalTransactions.map(pick));
  const rows = addressRows(transactions);
  const counts = addressCounts(transactions);
  const balances = holderChanges(tokenTransfers);
  const perToken = tokenCounts(tokenTransfers);
  return {
    number: block.number,
    hash: block.hash,
    parentHash: block.parentHash,
    values: [
      toDecimal(block.number), toBytea(block.hash), toBytea(block.parentHash), toDecimal(block.timestamp),
      toBytea(block.miner), toDecimal(block.gasUsed), toDecimal(block.gasLimit), toNullableDecimal(block.baseFeePerGas),
      toDecimal(block.difficulty), toDecimal(block.size), toBytea(block.stateRoot), toBytea(block.transactionsRoot),
      toBytea(block.receiptsRoot), toBytea(block.extraData), block.transactionCount,

      txColumn((tx) => tx.hash), txNumbers((tx) => tx.transactionIndex), txNumbers((tx) => tx.timestamp),
      txColumn((tx) => tx.from), txColumn((tx) => tx.to), txNumbers((tx) => tx.value), txNumbers((tx) => tx.gas),
      txNumbers((tx) => tx.gasPrice), txNumbers((tx) => tx.maxFeePerGas), txNumbers((tx) => tx.maxPriorityFeePerGas),
      txNumbers((tx) => tx.nonce), txColumn((tx) => tx.input), txNumbers((tx) => tx.type),
      txNumbers((tx) => tx.status), txNumbers((tx) => tx.gasUsed), txNumbers((tx) => tx.cumulativeGasUsed),
      txNumbers((tx) => tx.effectiveGasPrice), txColumn((tx) => tx.contractAddress), txColumn((tx) => tx.logsBloom),

      integerArray(logs.map((log) => log.logIndex)), integerArray(logs.map((log) => log.transactionIndex)),
      byteaArray(logs.map((log) => log.address)), topic(0), topic(1), topic(2), topic(3),
      byteaArray(logs.map((log) => log.data)),

      rows.addresses, rows.blockNumbers, rows.transactionIndexes,
      counts.addresses, counts.counts,
      transactions.length, transactions.filter((tx) => tx.contractAddress !== null).length,

      transferNumbers((x) => x.logIndex), transferNumbers((x) => x.batchIndex), transferColumn((x) => x.transactionHash),
      transferNumbers((x) => x.transactionIndex), transferColumn((x) => x.token), tokenTransfers.map((x) => x.standard),
      transferColumn((x) => x.operator), transferColumn((x) => x.from), transferColumn((x) => x.to),
      transferNumbers((x) => x.value), transferNumbers((x) => x.tokenId),

      balances.tokens, balances.holders, balances.deltas,
      perToken.tokens, perToken.standards, perToken.counts,

      integerArray(pairs.map((x) => x.logIndex)), byteaArray(pairs.map((x) => x.address)),
      byteaArray(pairs.map((x) => x.factory)), byteaArray(pairs.map((x) => x.token0)), byteaArray(pairs.map((x) => x.token1)),

      integerArray(pairSyncs.map((x) => x.logIndex)), byteaArray(pairSyncs.map((x) => x.pair)),
      integerArray(pairSyncs.map((x) => x.reserve0)), integerArray(pairSyncs.map((x) => x.reserve1)),

      integerArray(pairSwaps.map((x) => x.logIndex)), byteaArray(pairSwaps.map((x) => x.pair)),
      integerArray(pairSwaps.map((x) => x.amount0In)), integerArray(pairSwaps.map((x) => x.amount1In)),
      integerArray(pairSwaps.map((x) => x.amount0Out)), integerArray(pairSwaps.map((x) => x.amount1Out)),

      integerArray(contracts.map((x) => x.transactionIndex)), integerArray(contracts.map((x) => x.traceIndex)),
      byteaArray(contracts.map((x) => x.address)), byteaArray(contracts.map((x) => x.creator)),
      byteaArray(contracts.map((x) => x.transactionHash)),

      toBytea(`0x${transactions.map((tx) => tx.hash.slice(2)).join('')}`),

      internalNumbers((x) => x.transactionIndex), internalNumbers((x) => x.traceIndex),
      internalTransactions.map((x) => x.traceId), internalColumn((x) => x.transactionHash),
      internalTransactions.map((x) => x.type), internalColumn((x) => x.from), internalColumn((x) => x.to),
      internalNumbers((x) => x.value), internalNumbers((x) => x.gas), internalNumbers((x) => x.gasUsed),
      internalTransactions.map((x) => x.error),

      rows.fromEnd,

      toDecimal(bucketOf(block.timestamp, 'hour')), toDecimal(bucketOf(block.timestamp, 'day')),
      toDecimal(transactions.reduce((sum, tx) => sum + tx.effectiveGasPrice, 0n)), tokenTransfers.length,

      integerArray(approvals.map((x) => x.logIndex)), integerArray(approvals.map((x) => x.transactionIndex)),
      byteaArray(approvals.map((x) => x.transactionHash)), byteaArray(approvals.map((x) => x.token)),
      byteaArray(approvals.map((x) => x.owner)), byteaArray(approvals.map((x) => x.spender)), approvals.map((x) => x.kind),
      integerArray(approvals.map((x) => x.value)),

      transfersFromEnd(tokenTransfers),
      placesInBlock(logs),
    ],
  };
}

/**
 * For each of a block's `logs` in order, its place among the block's logs of its contract (1 for
 * the first): its ordinal is the contract's last one before the block plus this. An array literal
 * ready for `unnest`.
 */
function placesInBlock(logs: readonly Pick<StoredLog, 'address'>[]): string {
  const seen = new Map<Hex, number>();
  return integerArray(
    logs.map((log) => {
      const place = (seen.get(log.address) ?? 0) + 1;
      seen.set(log.address, place);
      return place;
    }),
  );
}

/** Throws a `writeBlock:` error for the first inconsistency of the bundle in itself. */
function checkBundle(bundle: BlockBundle): void {
  const { block, transactions, logs, tokenTransfers } = bundle;
  const fail = (message: string): never => {
    throw new Error(`writeBlock: ${message} (block ${block.number}, ${block.hash})`);
  };
  const indexOf = new Map<Hex, number>();
  let lastIndex = -1;
  for (const tx of transactions) {
    if (tx.blockNumber !== block.number || tx.blockHash !== block.hash) {
      fail(`transaction ${tx.hash} belongs to block ${tx.blockNumber} (${tx.blockHash})`);
    }
    if (tx.transactionIndex <= lastIndex) fail(`transaction ${tx.hash} is out of index order`);
    if (indexOf.has(tx.hash)) fail(`transaction ${tx.hash} appears twice`);
    lastIndex = tx.transactionIndex;
    indexOf.set(tx.hash, tx.transactionIndex);
  }
  const logsByIndex = new Map<number, StoredLog>();
  let lastLogIndex = -1;
  for (const log of logs) {
    if (log.blockNumber !== block.number || log.blockHash !== block.hash) {
      fail(`log ${log.logIndex} belongs to block ${log.blockNumber} (${log.blockHash})`);
    }
    if (indexOf.get(log.transactionHash) !== log.transactionIndex) {
      fail(`log ${log.logIndex} names no transaction of the block at index ${log.transactionIndex}`);
    }
    if (log.logIndex <= lastLogIndex) fail(`log ${log.logIndex} is out of logIndex order`);
    if (log.topics.length > 4) fail(`log ${log.logIndex} has ${log.topics.length} topics; the EVM allows at most 4`);
    lastLogIndex = log.logIndex;
    logsByIndex.set(log.logIndex, log);
  }
  let last: StoredTokenTransfer | undefined;
  for (const transfer of tokenTransfers) {
    const log = logsByIndex.get(transfer.logIndex);
    const name = `token transfer ${transfer.logIndex}/${transfer.batchIndex}`;
    if (!log || transfer.blockNumber !== block.number || transfer.transactionHash !== log.transactionHash || transfer.transactionIndex !== log.transactionIndex) {
      fail(`${name} names no log of the block`);
    }
    if (transfer.timestamp !== block.timestamp) fail(`${name} has another timestamp than its block`);
    if (last && (transfer.logIndex < last.logIndex || (transfer.logIndex === last.logIndex && transfer.batchIndex <= last.batchIndex))) {
      fail(`${name} is out of order`);
    }
    last = transfer;
  }
  const problem = pairEventProblem(bundle, logsByIndex) ?? approvalProblem(bundle, logsByIndex) ?? contractCreationProblem(bundle) ?? internalTransactionProblem(bundle);
  if (problem) fail(problem);
}

/**
 * Writes prepared bundles in the caller's transaction: locks the cursor and checks that the first
 * block is its child and each the child of the one before it (else throws, having written
 * nothing), then runs the write statement for each in turn. Resolves whether any webhook is
 * active (read under the lock): only then are the blocks matched against the webhooks.
 */
export async function writeBlocks(client: PoolClient, s: WriteStatements, bundles: readonly PreparedBundle[]): Promise<boolean> {
  const { cursor, webhooksActive } = await lockChainState(client, s.lockChainState);
  let parent: IndexerCursor | null = cursor;
  for (const bundle of bundles) {
    if (parent && (bundle.number !== parent.number + 1n || bundle.parentHash !== parent.hash)) {
      throw new Error(
        `writeBlock: block ${bundle.number} (${bundle.hash}, parent ${bundle.parentHash}) ` +
          `is not the child of the cursor ${parent.number} (${parent.hash})`,
      );
    }
    parent = { number: bundle.number, hash: bundle.hash };
  }
  for (const bundle of bundles) await client.query({ ...s.writeBlock, values: bundle.values });
  return webhooksActive;
}
