import type { JoinedPageReader, LogsQuery } from '../storage/index.js';
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
  constructor(private readonly storage: JoinedPageReader) {}

  /**
   * The page of logs matching `query` (see {@link LogReader.listLogs}: by contract, by topics with
   * Etherscan's `and`/`or` pairs, or both), oldest first, each with its block time and its
   * transaction's gas: one storage read, the page with its transactions' fields.
   */
  async search(query: LogsQuery): Promise<LogSearchRecord[]> {
    const logs = await this.storage.listLogsWithGas(query);
    return logs.map((log) => ({ ...formatChainLog(log), timestamp: log.timestamp.toString(), gasPrice: log.effectiveGasPrice.toString(), gasUsed: log.gasUsed.toString() }));
  }
}
