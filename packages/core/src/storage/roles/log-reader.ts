import type { LogsQuery } from '../log-topic-records.js';
import type { Hex } from '../records.js';
import type { AddressLogsQuery, ListTip, OrdinalRange, StoredLog } from '../records.js';

/**
 * Logs of written blocks, by emitter and by topics (a transaction's own logs are
 * {@link TransactionReader.getTransactionLogs}).
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface LogReader {
  /**
   * Logs emitted by `address`, filtered by inclusive block range and first topic, ordered by
   * (blockNumber, logIndex) as `sort` says, then paged as {@link listAddressTransactions}.
   */
  listAddressLogs(query: AddressLogsQuery): Promise<StoredLog[]>;
  /**
   * How many logs `address` emitted and the block of the newest, in one consistent read; `null`
   * when it emitted none. A database backend MUST read it from an index, not by counting.
   */
  getAddressLogTip(address: Hex): Promise<ListTip | null>;
  /**
   * The logs of `address` numbered `range.first` to `range.last` in chain order (as
   * {@link getAddressLogTip} counts them), oldest first; ordinals below 1 or past the list's
   * length have none. After a rollback the ordinals of kept logs are unchanged and a fork's logs
   * continue them. A database backend MUST read only the range's entries, from an index on the
   * ordinals.
   */
  listAddressLogRange(address: Hex, range: OrdinalRange): Promise<StoredLog[]>;
  /**
   * Logs matching `query` (its contract if given, its topics as `logMatchesTopics` reads them,
   * the inclusive block range), ascending by (blockNumber, logIndex), then paged as
   * {@link listAddressTransactions}. A query naming neither a contract nor a topic MUST resolve
   * empty. A search by topics alone MUST be read through an index on the topic positions (never
   * by reading every log), and a rollback MUST take the logs of removed blocks out of it.
   */
  listLogs(query: LogsQuery): Promise<StoredLog[]>;
}
