import { QueryTooLargeError } from '../errors/index.js';
import type { Hex, Storage, StoredLog } from '../storage/index.js';
import { formatChainLog, type ChainLogRecord } from './format.js';

/** How two topic conditions combine. */
export type TopicOperator = 'and' | 'or';

/** A pair of topic positions, lower first: `0_1`, `0_2`, … `2_3`. */
export type TopicPair = '0_1' | '0_2' | '0_3' | '1_2' | '1_3' | '2_3';

/** Which of a contract's logs to find. */
export interface LogFilter {
  address: Hex;
  /** Inclusive block range. */
  fromBlock?: bigint;
  toBlock?: bigint;
  /** The value each topic position must have; `undefined` matches anything. */
  topics: readonly (Hex | undefined)[];
  /**
   * How two given topics combine (`and` when absent). Each pair of given topics is one clause and
   * every clause must hold, as Etherscan's `topicX_Y_opr` parameters are read by Blockscout.
   */
  operators: Partial<Record<TopicPair, TopicOperator>>;
  /** 1-based page of `offset` logs, in chain order. */
  page: number;
  offset: number;
}

/** A log with its block's time and its transaction's gas price and gas used (what Etherscan's getLogs answers). */
export interface LogSearchRecord extends ChainLogRecord {
  /** Unix seconds. */
  timestamp: string;
  /** The effective price its transaction paid, Wei. */
  gasPrice: string;
  gasUsed: string;
}

const PAIRS: readonly [TopicPair, number, number][] = [
  ['0_1', 0, 1],
  ['0_2', 0, 2],
  ['0_3', 0, 3],
  ['1_2', 1, 2],
  ['1_3', 1, 3],
  ['2_3', 2, 3],
];

/** How much of a contract's logs one search may read while filtering on topics storage does not index. */
export interface LogScanLimit {
  /** Logs per storage read. */
  pageSize: number;
  /** Storage reads per answer; past them the search is refused. */
  pages: number;
}

/** Finds contracts' logs by block range and topics, from indexed data. */
export class LogService {
  constructor(
    private readonly storage: Storage,
    private readonly scan: LogScanLimit = { pageSize: 1_000, pages: 100 },
  ) {}

  /**
   * The page of `filter.address`'s logs matching the filter, oldest first. Storage pages by
   * address and first topic itself; other topic conditions are checked here over the address's
   * logs, and a search that would read more than the scan limit for one answer throws
   * {@link QueryTooLargeError}.
   */
  async search(filter: LogFilter): Promise<LogSearchRecord[]> {
    const given = givenPositions(filter);
    // Storage narrows by the first topic when every match must have it.
    const topic0Required =
      filter.topics[0] !== undefined && (given.length === 1 || PAIRS.some(([pair, a, b]) => a === 0 && filter.topics[b] !== undefined && operatorOf(filter, pair) === 'and'));
    const range = { address: filter.address, startBlock: filter.fromBlock, endBlock: filter.toBlock, sort: 'asc' as const };
    const topic0 = topic0Required ? filter.topics[0] : undefined;
    if (given.length === 0 || (given.length === 1 && topic0Required)) {
      return this.withTransactions(await this.storage.listAddressLogs({ ...range, topic0, page: filter.page, offset: filter.offset }));
    }
    const wanted = filter.page * filter.offset;
    const matches: StoredLog[] = [];
    for (let page = 1; matches.length < wanted; page++) {
      if (page > this.scan.pages) throw new QueryTooLargeError();
      const logs = await this.storage.listAddressLogs({ ...range, topic0, page, offset: this.scan.pageSize });
      for (const log of logs) if (matchesTopics(log, filter)) matches.push(log);
      if (logs.length < this.scan.pageSize) break;
    }
    return this.withTransactions(matches.slice((filter.page - 1) * filter.offset, wanted));
  }

  private async withTransactions(logs: StoredLog[]): Promise<LogSearchRecord[]> {
    const hashes = [...new Set(logs.map((log) => log.transactionHash))];
    const transactions = await this.storage.getTransactions(hashes);
    const byHash = new Map(transactions.flatMap((tx) => (tx ? [[tx.hash, tx] as const] : [])));
    return logs.map((log) => {
      const tx = byHash.get(log.transactionHash);
      // Logs are written with their transactions in one block: a miss is a broken store.
      if (!tx) throw new Error(`transaction ${log.transactionHash} of a stored log is missing`);
      return { ...formatChainLog(log), timestamp: tx.timestamp.toString(), gasPrice: tx.effectiveGasPrice.toString(), gasUsed: tx.gasUsed.toString() };
    });
  }
}

/** The topic positions the filter sets. */
function givenPositions(filter: LogFilter): number[] {
  return filter.topics.flatMap((topic, position) => (topic === undefined ? [] : [position]));
}

function operatorOf(filter: LogFilter, pair: TopicPair): TopicOperator {
  return filter.operators[pair] ?? 'and';
}

/** Whether `log` meets every clause of the filter's topics. */
function matchesTopics(log: StoredLog, filter: LogFilter): boolean {
  const is = (position: number) => log.topics[position] === filter.topics[position];
  const given = givenPositions(filter);
  if (given.length === 1) return is(given[0]!);
  return PAIRS.every(([pair, a, b]) => {
    if (filter.topics[a] === undefined || filter.topics[b] === undefined) return true;
    return operatorOf(filter, pair) === 'and' ? is(a) && is(b) : is(a) || is(b);
  });
}
