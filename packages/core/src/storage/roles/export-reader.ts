import type { KeysetQuery, LogPosition, TracePosition, TransactionPosition, TransferPosition } from '../export-records.js';
import type { StoredInternalTransaction } from '../internal-transaction-records.js';
import type { StoredLog, StoredTokenTransfer, StoredTransaction } from '../records.js';

/**
 * Keyset pages for exports: an address's records in ascending chain order within the inclusive
 * block range, strictly after `after`, at most `limit` of them. Each page MUST be read through
 * an index from `after` on, never by skipping earlier rows.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface ExportReader {
  /** {@link listAddressTransactions}' records, ascending by (blockNumber, transactionIndex). */
  listAddressTransactionsAfter(query: KeysetQuery<TransactionPosition>): Promise<StoredTransaction[]>;
  /** {@link listInternalTransactions}' records of the address, ascending by (blockNumber, transactionIndex, traceIndex). */
  listAddressInternalTransactionsAfter(query: KeysetQuery<TracePosition>): Promise<StoredInternalTransaction[]>;
  /** {@link listAddressTokenTransfers}' records (every token and standard), ascending by (blockNumber, logIndex, batchIndex). */
  listAddressTokenTransfersAfter(query: KeysetQuery<TransferPosition>): Promise<StoredTokenTransfer[]>;
  /** {@link listAddressLogs}' records (every topic), ascending by (blockNumber, logIndex). */
  listAddressLogsAfter(query: KeysetQuery<LogPosition>): Promise<StoredLog[]>;
}
