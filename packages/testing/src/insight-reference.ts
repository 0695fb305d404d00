import {
  type ApprovalsQuery,
  type BlockBundle,
  bucketOf,
  type ChartRollupsQuery,
  type KeysetQuery,
  type LogPosition,
  type StoredApproval,
  type StoredChartRollup,
  type StoredInternalTransaction,
  type StoredLog,
  type StoredTokenTransfer,
  type StoredTransaction,
  type TokenRollupsPage,
  type TokenRollupsQuery,
  type TracePosition,
  type TransactionPosition,
  type TransferPosition,
} from '@chainlens/core';
import { chainInternalTransactions } from './internal-transaction-fixtures.js';
import { chainLogs, chainTokenTransfers, chainTransactions, involvedAddresses, referenceTokenHoldersAt } from './reference.js';

/**
 * Reference answers for chart rollups, approvals and export pages, computed straight from
 * bundles as the Storage contract defines them (see `reference.ts`).
 */

/**
 * What `listChartRollups` must return: each bucket of the range holding a block of the chain,
 * with what its blocks add up to.
 *
 * @example
 * expect(await storage.listChartRollups(query)).toEqual(referenceChartRollups(chain, query));
 */
export function referenceChartRollups(chain: readonly BlockBundle[], query: ChartRollupsQuery): StoredChartRollup[] {
  const seen = new Set<string>();
  const rollups = new Map<bigint, StoredChartRollup & { active: Set<string> }>();
  for (const { block, transactions, tokenTransfers } of chain) {
    const bucket = bucketOf(block.timestamp, query.resolution);
    let rollup = rollups.get(bucket);
    if (!rollup) {
      rollup = { bucket, blocks: 0, transactions: 0, gasUsed: 0n, gasPriceSum: 0n, newContracts: 0, tokenTransfers: 0, newAddresses: 0, activeAddresses: 0, active: new Set() };
      rollups.set(bucket, rollup);
    }
    rollup.blocks += 1;
    rollup.transactions += transactions.length;
    rollup.gasUsed += block.gasUsed;
    rollup.tokenTransfers += tokenTransfers.length;
    for (const tx of transactions) {
      rollup.gasPriceSum += tx.effectiveGasPrice;
      if (tx.contractAddress !== null) rollup.newContracts += 1;
      for (const address of involvedAddresses(tx)) {
        rollup.active.add(address);
        if (!seen.has(address)) rollup.newAddresses += 1;
        seen.add(address);
      }
    }
  }
  return [...rollups.values()]
    .filter((rollup) => rollup.bucket >= query.from && rollup.bucket <= query.to)
    .sort((a, b) => (a.bucket < b.bucket ? -1 : 1))
    .map(({ active, ...rollup }) => ({ ...rollup, activeAddresses: active.size }));
}

/** What `listTokenRollups` must return: the token's buckets with transfers, and the last one before the range. */
export function referenceTokenRollups(chain: readonly BlockBundle[], query: TokenRollupsQuery): TokenRollupsPage {
  const byBucket = new Map<bigint, { transfers: number; lastBlock: bigint }>();
  for (const transfer of chainTokenTransfers(chain)) {
    if (transfer.token !== query.token) continue;
    const bucket = bucketOf(transfer.timestamp, query.resolution);
    const entry = byBucket.get(bucket) ?? { transfers: 0, lastBlock: transfer.blockNumber };
    entry.transfers += 1;
    entry.lastBlock = transfer.blockNumber;
    byBucket.set(bucket, entry);
  }
  const all = [...byBucket.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([bucket, { transfers, lastBlock }]) => ({ bucket, transfers, holders: referenceTokenHoldersAt(chain, query.token, lastBlock) }));
  return {
    before: all.filter((rollup) => rollup.bucket < query.from).at(-1) ?? null,
    rollups: all.filter((rollup) => rollup.bucket >= query.from && rollup.bucket <= query.to),
  };
}

/** Every approval of a chain, in chain order. */
export function chainApprovals(chain: readonly BlockBundle[]): StoredApproval[] {
  return chain.flatMap((bundle) => bundle.approvals);
}

/** What `listApprovals` must return: the owner's latest approval per token, spender and kind when not zero, newest first, paged. */
export function referenceApprovals(chain: readonly BlockBundle[], query: ApprovalsQuery): StoredApproval[] {
  const latest = new Map<string, StoredApproval>();
  for (const approval of chainApprovals(chain)) {
    if (approval.owner === query.owner) latest.set(`${approval.token}:${approval.spender}:${approval.kind}`, approval);
  }
  const standing = [...latest.values()]
    .filter((approval) => approval.value !== 0n)
    .sort((a, b) => (a.blockNumber !== b.blockNumber ? (a.blockNumber > b.blockNumber ? -1 : 1) : b.logIndex - a.logIndex));
  const start = (query.page - 1) * query.offset;
  return standing.slice(start, start + query.offset);
}

/** Ascending chain order of two positions given as tuples of their keys. */
function after(record: readonly (bigint | number)[], position: readonly (bigint | number)[]): boolean {
  for (let i = 0; i < record.length; i++) {
    if (record[i]! !== position[i]!) return record[i]! > position[i]!;
  }
  return false;
}

/** The keyset page of `records` (in ascending chain order) for `query`, each record's position told by `key`. */
function keysetPage<T extends { blockNumber: bigint }, P>(records: readonly T[], query: KeysetQuery<P>, key: (value: T | P) => (bigint | number)[]): T[] {
  return records
    .filter(
      (record) =>
        (query.startBlock === undefined || record.blockNumber >= query.startBlock) &&
        (query.endBlock === undefined || record.blockNumber <= query.endBlock) &&
        (query.after === undefined || after(key(record), key(query.after))),
    )
    .slice(0, query.limit);
}

/** What `listAddressTransactionsAfter` must return. */
export function referenceAddressTransactionsAfter(chain: readonly BlockBundle[], query: KeysetQuery<TransactionPosition>): StoredTransaction[] {
  const mine = chainTransactions(chain).filter((tx) => involvedAddresses(tx).includes(query.address));
  return keysetPage(mine, query, (p) => [p.blockNumber, p.transactionIndex]);
}

/** What `listAddressInternalTransactionsAfter` must return. */
export function referenceAddressInternalTransactionsAfter(chain: readonly BlockBundle[], query: KeysetQuery<TracePosition>): StoredInternalTransaction[] {
  const mine = chainInternalTransactions(chain).filter((internal) => internal.from === query.address || internal.to === query.address);
  return keysetPage(mine, query, (p) => [p.blockNumber, p.transactionIndex, p.traceIndex]);
}

/** What `listAddressTokenTransfersAfter` must return. */
export function referenceAddressTokenTransfersAfter(chain: readonly BlockBundle[], query: KeysetQuery<TransferPosition>): StoredTokenTransfer[] {
  const mine = chainTokenTransfers(chain).filter((transfer) => transfer.from === query.address || transfer.to === query.address);
  return keysetPage(mine, query, (p) => [p.blockNumber, p.logIndex, p.batchIndex]);
}

/** What `listAddressLogsAfter` must return. */
export function referenceAddressLogsAfter(chain: readonly BlockBundle[], query: KeysetQuery<LogPosition>): StoredLog[] {
  const mine = chainLogs(chain).filter((log) => log.address === query.address);
  return keysetPage(mine, query, (p) => [p.blockNumber, p.logIndex]);
}
