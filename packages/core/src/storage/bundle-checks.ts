import type { StoredContractCreation } from './contract-records.js';
import type { StoredInternalTransaction } from './internal-transaction-records.js';
import type { BlockBundle, Hex, StoredBlock, StoredLog, StoredTransaction } from './records.js';
import type { BlockTraces } from './trace-records.js';

/** A block as the checks of its contract creations and internal transactions see it. */
export interface BlockTransactionsAt {
  block: Pick<StoredBlock, 'number' | 'timestamp'>;
  transactions: readonly Pick<StoredTransaction, 'transactionIndex' | 'hash'>[];
}

/** Where a pair event says it comes from. */
interface PairEventAt {
  blockNumber: bigint;
  logIndex: number;
  timestamp: bigint;
  emitter: Hex;
}

/**
 * The first inconsistency of a bundle's pair events with its logs, as a message, or `null`:
 * every pair event names a log of the block emitted by its contract (a pair's factory, a sync's
 * or swap's pair), carries the block's timestamp, and the events of each kind ascend in
 * `logIndex`. Shared by the storage backends, which check bundles before writing them.
 */
export function pairEventProblem(bundle: BlockBundle, logsByIndex: ReadonlyMap<number, StoredLog>): string | null {
  const { block } = bundle;
  const kinds: [string, PairEventAt[]][] = [
    ['pair', bundle.pairs.map((pair) => ({ ...pair, emitter: pair.factory, timestamp: block.timestamp }))],
    ['pair sync', bundle.pairSyncs.map((sync) => ({ ...sync, emitter: sync.pair }))],
    ['pair swap', bundle.pairSwaps.map((swap) => ({ ...swap, emitter: swap.pair }))],
  ];
  for (const [kind, events] of kinds) {
    let lastLogIndex = -1;
    for (const event of events) {
      const log = logsByIndex.get(event.logIndex);
      if (!log || event.blockNumber !== block.number || log.address !== event.emitter) return `${kind} ${event.logIndex} names no log of the block from its contract`;
      if (event.timestamp !== block.timestamp) return `${kind} ${event.logIndex} has another timestamp than its block`;
      if (event.logIndex <= lastLogIndex) return `${kind} ${event.logIndex} is out of logIndex order`;
      lastLogIndex = event.logIndex;
    }
  }
  return null;
}

/**
 * The first inconsistency of a bundle's approvals with its logs, as a message, or `null`: each
 * names a log of the block emitted by its token and of its transaction, carries the block's
 * timestamp, and they ascend in `logIndex`. Shared by the storage backends.
 */
export function approvalProblem(bundle: Pick<BlockBundle, 'block' | 'approvals'>, logsByIndex: ReadonlyMap<number, StoredLog>): string | null {
  let lastLogIndex = -1;
  for (const approval of bundle.approvals) {
    const log = logsByIndex.get(approval.logIndex);
    const name = `approval ${approval.logIndex}`;
    if (!log || approval.blockNumber !== bundle.block.number || log.address !== approval.token || log.transactionHash !== approval.transactionHash || log.transactionIndex !== approval.transactionIndex) {
      return `${name} names no log of the block from its token`;
    }
    if (approval.timestamp !== bundle.block.timestamp) return `${name} has another timestamp than its block`;
    if (approval.logIndex <= lastLogIndex) return `${name} is out of logIndex order`;
    lastLogIndex = approval.logIndex;
  }
  return null;
}

/**
 * The first inconsistency of a bundle's contract creations, as a message, or `null`: each names
 * a transaction of the block by hash and index, and they ascend in (`transactionIndex`,
 * `traceIndex`).
 */
export function contractCreationProblem({ block, transactions, contracts }: BlockTransactionsAt & { contracts: readonly StoredContractCreation[] }): string | null {
  const hashAt = new Map(transactions.map((tx) => [tx.transactionIndex, tx.hash]));
  let last: { transactionIndex: number; traceIndex: number } | null = null;
  for (const creation of contracts) {
    const name = `contract creation ${creation.transactionIndex}/${creation.traceIndex}`;
    if (creation.blockNumber !== block.number || hashAt.get(creation.transactionIndex) !== creation.transactionHash) return `${name} names no transaction of the block`;
    if (last && (creation.transactionIndex < last.transactionIndex || (creation.transactionIndex === last.transactionIndex && creation.traceIndex <= last.traceIndex))) {
      return `${name} is out of order`;
    }
    last = creation;
  }
  return null;
}

/**
 * The first inconsistency of a bundle's internal transactions, as a message, or `null`: each
 * names a transaction of the block by hash and index, carries the block's timestamp, and they
 * ascend in (`transactionIndex`, `traceIndex`).
 */
export function internalTransactionProblem({
  block,
  transactions,
  internalTransactions,
}: BlockTransactionsAt & { internalTransactions: readonly StoredInternalTransaction[] }): string | null {
  const hashAt = new Map(transactions.map((tx) => [tx.transactionIndex, tx.hash]));
  let last: { transactionIndex: number; traceIndex: number } | null = null;
  for (const internal of internalTransactions) {
    const name = `internal transaction ${internal.transactionIndex}/${internal.traceIndex}`;
    if (internal.blockNumber !== block.number || hashAt.get(internal.transactionIndex) !== internal.transactionHash) return `${name} names no transaction of the block`;
    if (internal.timestamp !== block.timestamp) return `${name} has another timestamp than its block`;
    if (last && (internal.transactionIndex < last.transactionIndex || (internal.transactionIndex === last.transactionIndex && internal.traceIndex <= last.traceIndex))) {
      return `${name} is out of order`;
    }
    last = internal;
  }
  return null;
}

/**
 * The first inconsistency of a block's traces with the block as stored (its number, hash,
 * timestamp and transactions), as a message, or `null`: they name that block, hold no
 * transaction's own creation (`traceIndex` 0, written with the block), and their creations and
 * internal transactions pass {@link contractCreationProblem} and {@link internalTransactionProblem}.
 */
export function blockTracesProblem(traces: BlockTraces, stored: BlockTransactionsAt & { block: Pick<StoredBlock, 'hash'> }): string | null {
  if (traces.blockNumber !== stored.block.number || traces.blockHash !== stored.block.hash) {
    return `traces of block ${traces.blockNumber} (${traces.blockHash}) do not belong to the stored block ${stored.block.number} (${stored.block.hash})`;
  }
  const own = traces.contracts.find((creation) => creation.traceIndex < 1);
  if (own) return `contract creation ${own.transactionIndex}/${own.traceIndex} is a transaction's own creation, written with its block`;
  return contractCreationProblem({ ...stored, contracts: traces.contracts }) ?? internalTransactionProblem({ ...stored, internalTransactions: traces.internalTransactions });
}
