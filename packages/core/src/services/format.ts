import type { Hex, ListedTransaction, StoredBlock, StoredLog, StoredTransaction } from '../storage/index.js';
import type { PendingTransactionEvent } from '../events/index.js';
import { labelOf, type AddressLabels } from './address-labels.js';
import type { z } from 'zod';
import type { blockRecordSchema, logRecordSchema, pendingTransactionRecordSchema, receiptRecordSchema, transactionRecordSchema } from '../records/record-schemas.js';

/**
 * The spec's API records, shaped once here and reused by REST, JSON-RPC, GraphQL and channels.
 * Quantities become decimal strings; hashes and addresses stay lowercase hex.
 */

/** Transaction record (spec: Transaction), Etherscan style: `to` is '' for a creation. */
export type TransactionRecord = z.infer<typeof transactionRecordSchema>;

/** A log as the chain has it (what Etherscan's getLogs is mapped from). */
export type ChainLogRecord = Omit<LogRecord, 'addressLabel'>;

/** Log record (spec: Log): the chain's log with its emitter's public label. */
export type LogRecord = z.infer<typeof logRecordSchema>;

export type ReceiptRecord = z.infer<typeof receiptRecordSchema>;

export type BlockRecord = z.infer<typeof blockRecordSchema>;

/**
 * Confirmations of a mined block at `blockNumber` when `head` is the newest indexed block (head
 * itself: 1). A head that lags the block (a cached head, read just before the block landed)
 * still gives 1: the block is mined, so it is at least the newest.
 */
export function confirmationsOf(blockNumber: bigint, head: bigint | null): bigint {
  return head === null || head < blockNumber ? 1n : head - blockNumber + 1n;
}

/** The addresses a transaction record names (for {@link formatTransaction}'s labels). */
export function transactionAddresses(tx: ListedTransaction): (Hex | null)[] {
  return [tx.from, tx.to, tx.contractAddress];
}

/** The Transaction record of `tx`, its confirmations counted from `head`, its parties' labels from `labels`. */
export function formatTransaction(tx: ListedTransaction, head: bigint | null, labels: AddressLabels): TransactionRecord {
  return {
    hash: tx.hash,
    blockNumber: tx.blockNumber.toString(),
    blockHash: tx.blockHash,
    timestamp: tx.timestamp.toString(),
    from: tx.from,
    fromLabel: labelOf(labels, tx.from),
    to: tx.to ?? '',
    toLabel: labelOf(labels, tx.to ?? tx.contractAddress),
    value: tx.value.toString(),
    gas: tx.gas.toString(),
    gasPrice: tx.effectiveGasPrice.toString(),
    gasUsed: tx.gasUsed.toString(),
    cumulativeGasUsed: tx.cumulativeGasUsed.toString(),
    nonce: tx.nonce.toString(),
    input: tx.input,
    transactionIndex: String(tx.transactionIndex),
    confirmations: confirmationsOf(tx.blockNumber, head).toString(),
    isError: tx.status === 1 ? '0' : '1',
    txreceipt_status: tx.status === 1 ? '1' : '0',
    contractAddress: tx.contractAddress ?? '',
  };
}

/** The chain's fields of a stored log. */
export function formatChainLog(log: StoredLog): ChainLogRecord {
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: log.blockNumber.toString(),
    transactionHash: log.transactionHash,
    transactionIndex: String(log.transactionIndex),
    blockHash: log.blockHash,
    logIndex: String(log.logIndex),
    removed: false,
  };
}

/** The Log record of `log`, its emitter's label from `labels`. */
export function formatLog(log: StoredLog, labels: AddressLabels): LogRecord {
  const { address, ...rest } = formatChainLog(log);
  return { address, addressLabel: labelOf(labels, address), ...rest };
}

/** The addresses a transaction's logs name (for {@link formatLog}'s labels). */
export function logAddresses(logs: readonly StoredLog[]): Hex[] {
  return logs.map((log) => log.address);
}

/** The receipt record of `tx` with its `logs`, its parties' and emitters' labels from `labels`. */
export function formatReceipt(tx: StoredTransaction, logs: readonly StoredLog[], labels: AddressLabels): ReceiptRecord {
  return {
    transactionHash: tx.hash,
    transactionIndex: String(tx.transactionIndex),
    blockHash: tx.blockHash,
    blockNumber: tx.blockNumber.toString(),
    from: tx.from,
    fromLabel: labelOf(labels, tx.from),
    to: tx.to,
    toLabel: labelOf(labels, tx.to ?? tx.contractAddress),
    cumulativeGasUsed: tx.cumulativeGasUsed.toString(),
    gasUsed: tx.gasUsed.toString(),
    effectiveGasPrice: tx.effectiveGasPrice.toString(),
    contractAddress: tx.contractAddress,
    logs: logs.map((log) => formatLog(log, labels)),
    logsBloom: tx.logsBloom,
    status: tx.status === 1 ? '1' : '0',
  };
}

/** The block record of `block`, its miner's label from `labels`. */
export function formatBlock(block: StoredBlock, transactionHashes: readonly string[], labels: AddressLabels): BlockRecord {
  return {
    blockNumber: block.number.toString(),
    hash: block.hash,
    parentHash: block.parentHash,
    timestamp: block.timestamp.toString(),
    miner: block.miner,
    minerLabel: labelOf(labels, block.miner),
    gasUsed: block.gasUsed.toString(),
    gasLimit: block.gasLimit.toString(),
    baseFeePerGas: block.baseFeePerGas === null ? null : block.baseFeePerGas.toString(),
    difficulty: block.difficulty.toString(),
    size: block.size.toString(),
    stateRoot: block.stateRoot,
    transactionsRoot: block.transactionsRoot,
    receiptsRoot: block.receiptsRoot,
    extraData: block.extraData,
    transactionCount: block.transactionCount,
    transactions: [...transactionHashes],
  };
}

/** Pending transaction record (spec: Pending transaction). */
export type PendingTransactionRecord = z.infer<typeof pendingTransactionRecordSchema>;

export function formatPending(tx: PendingTransactionEvent): PendingTransactionRecord {
  return {
    hash: tx.hash,
    from: tx.from,
    to: tx.to ?? '',
    value: tx.value.toString(),
    gasPrice: tx.gasPrice.toString(),
    gas: tx.gas.toString(),
    nonce: tx.nonce.toString(),
    submittedAt: tx.submittedAt.toString(),
  };
}
