import type { LogReader, LogsQuery, StoredLog, TransactionReader } from '../storage/index.js';
import type { ChainRecordCache } from './chain-record-cache.js';
import { formatChainLog, type ChainLogRecord } from './format.js';

/** A log with its block's time and its transaction's gas price and gas used (what Etherscan's getLogs answers). */
export interface LogSearchRecord extends ChainLogRecord {
  /** Unix seconds. */
  timestamp: string;
  /** The effective price its transaction paid, Wei. */
  gasPrice: string;
  gasUsed: string;
}

/** Finds logs by contract and topics, from indexed data. */
export class LogService {
  /** `records` keeps the logs' transactions between requests: a page asked again reads only its logs. */
  constructor(
    private readonly storage: LogReader & TransactionReader,
    private readonly records: ChainRecordCache,
  ) {}

  /**
   * The page of logs matching `query` (see {@link LogReader.listLogs}: by contract, by topics with
   * Etherscan's `and`/`or` pairs, or both), oldest first, each with its block time and its
   * transaction's gas.
   */
  async search(query: LogsQuery): Promise<LogSearchRecord[]> {
    return this.withTransactions(await this.storage.listLogs(query));
  }

  private async withTransactions(logs: StoredLog[]): Promise<LogSearchRecord[]> {
    const hashes = [...new Set(logs.map((log) => log.transactionHash))];
    const transactions = await this.records.transactions(this.storage, hashes);
    const byHash = new Map(transactions.flatMap((tx) => (tx ? [[tx.hash, tx] as const] : [])));
    return logs.map((log) => {
      const tx = byHash.get(log.transactionHash);
      // Logs are written with their transactions in one block: a miss is a broken store.
      if (!tx) throw new Error(`transaction ${log.transactionHash} of a stored log is missing`);
      return { ...formatChainLog(log), timestamp: tx.timestamp.toString(), gasPrice: tx.effectiveGasPrice.toString(), gasUsed: tx.gasUsed.toString() };
    });
  }
}
