import type { StoredContractCreation } from '../contract-records.js';
import type { InternalTransactionsQuery, StoredInternalTransaction } from '../internal-transaction-records.js';
import type { AddressActivity, AddressTransactionsQuery, Hex, StoredLog, StoredTransaction, TransactionsBetweenQuery } from '../records.js';

/**
 * Transactions by hash and by address, their internal transactions (from traces) and the
 * contracts they created.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface TransactionReader {
  getTransaction(hash: Hex): Promise<StoredTransaction | null>;
  /** One round trip for many hashes; the result is in input order with `null` for unknown ones. */
  getTransactions(hashes: Hex[]): Promise<(StoredTransaction | null)[]>;
  /** A transaction's logs in `logIndex` order (empty when unknown). */
  getTransactionLogs(hash: Hex): Promise<StoredLog[]>;
  /**
   * Transactions sent from, sent to, or creating `address`, ordered by (blockNumber,
   * transactionIndex) as `sort` says, filtered by the inclusive block range, then paged:
   * page `p` of size `o` is items `(p-1)*o … p*o-1`. A transaction sent by an address to itself
   * appears once.
   */
  listAddressTransactions(query: AddressTransactionsQuery): Promise<StoredTransaction[]>;
  /**
   * The hashes of {@link listAddressTransactions}' answer to `query`, in its order: a page whose
   * records are kept elsewhere (they change only with a reorg) is then read without them.
   */
  listAddressTransactionHashes(query: AddressTransactionsQuery): Promise<Hex[]>;
  /**
   * Transactions in which both `address` and `counterparty` take part (as sender, recipient or
   * created contract), ordered and paged as {@link listAddressTransactions}.
   */
  listTransactionsBetween(query: TransactionsBetweenQuery): Promise<StoredTransaction[]>;
  /** Transaction count and first/last activity (block timestamps) of an address. */
  getAddressActivity(address: Hex): Promise<AddressActivity>;
  /**
   * Internal transactions of written blocks, of one address (as sender or recipient, once when
   * both) or of every address, within the inclusive block range, ordered by (blockNumber,
   * transactionIndex, traceIndex) as `sort` says, then paged as {@link listAddressTransactions}.
   */
  listInternalTransactions(query: InternalTransactionsQuery): Promise<StoredInternalTransaction[]>;
  /**
   * The latest creation of a contract at `address` among written blocks (a CREATE2 address can
   * be created again after a self-destruct), else `null`.
   */
  getContractCreation(address: Hex): Promise<StoredContractCreation | null>;
}
