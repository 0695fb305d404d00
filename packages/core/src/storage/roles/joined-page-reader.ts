import type { LogsQuery } from '../log-topic-records.js';
import type { Hex, OrdinalRange, StoredLogWithGas, StoredTransferWithTransaction } from '../records.js';
import type { AddressTokenTransfersQuery, TokenTransfersQuery, TransferPageWithTokens } from '../token-records.js';

/**
 * Pages of logs and token transfers each with its transaction, as the Etherscan list answers
 * show them: the same pages as {@link LogReader.listLogs}, {@link TokenReader.listTokenTransfers}
 * and {@link TokenReader.listAddressTokenTransfers}, read in one go, so a database answers such
 * a page with one statement (the page joined with its transactions) rather than the page and then
 * a lookup of its transactions.
 *
 * One role of `Storage`, whose rules every method here keeps too (a page and its transactions
 * come from one snapshot: never a log or transfer without its transaction).
 */
export interface JoinedPageReader {
  /** {@link LogReader.listLogs}'s page, each log with its block time and its transaction's gas. */
  listLogsWithGas(query: LogsQuery): Promise<StoredLogWithGas[]>;
  /** {@link LogReader.listAddressLogRange}'s logs, each with its block time and its transaction's gas. */
  listAddressLogRangeWithGas(address: Hex, range: OrdinalRange): Promise<StoredLogWithGas[]>;
  /** {@link TokenReader.listTokenTransfers}'s page, each transfer with its transaction. */
  listTokenTransfersWithTransactions(query: TokenTransfersQuery): Promise<StoredTransferWithTransaction[]>;
  /** {@link TokenReader.listTokenTransferRange}'s transfers, each with its transaction. */
  listTokenTransferRangeWithTransactions(token: Hex, range: OrdinalRange): Promise<StoredTransferWithTransaction[]>;
  /**
   * {@link TokenReader.listAddressTokenTransfers}'s page, each transfer with its transaction, and
   * the tokens the page moves as {@link TokenReader.getToken} has them: an address's page mixes
   * tokens, and its records name each.
   */
  listAddressTokenTransfersWithTokens(query: AddressTokenTransfersQuery): Promise<TransferPageWithTokens>;
}
