/**
 * Log searches by topics, with or without the emitting contract: the query `Storage.listLogs`
 * answers and the one rule for which logs match it, Etherscan's `topicX_Y_opr` pairs as Blockscout
 * reads them.
 */
import type { Hex, StoredLog } from './records.js';

/** How two topic conditions combine. */
export type TopicOperator = 'and' | 'or';

/** A pair of topic positions, lower first: `0_1`, `0_2`, … `2_3`. */
export type TopicPair = '0_1' | '0_2' | '0_3' | '1_2' | '1_3' | '2_3';

/** Every pair of topic positions, with the two positions it joins. */
export const TOPIC_PAIRS: readonly (readonly [TopicPair, number, number])[] = Object.freeze([
  ['0_1', 0, 1],
  ['0_2', 0, 2],
  ['0_3', 0, 3],
  ['1_2', 1, 2],
  ['1_3', 1, 3],
  ['2_3', 2, 3],
] as const);

/** Which logs to find: by contract, by topics, or both, within a block range, in chain order. */
export interface LogsQuery {
  /** Only the logs this contract emitted; absent: every contract's. */
  address?: Hex;
  /** Inclusive block range. */
  startBlock?: bigint;
  endBlock?: bigint;
  /** The value each topic position (0 to 3) must have; `undefined` matches anything. */
  topics: readonly (Hex | undefined)[];
  /**
   * How two given topics combine (`and` when absent). With one topic given, a log must have it;
   * with more, each pair of given topics is one clause and every clause must hold.
   */
  operators: Partial<Record<TopicPair, TopicOperator>>;
  /** 1-based page of `offset` logs, ascending by (blockNumber, logIndex). */
  page: number;
  offset: number;
}

/** The topic positions `query` sets. */
export function givenTopicPositions(query: Pick<LogsQuery, 'topics'>): number[] {
  return query.topics.flatMap((topic, position) => (topic === undefined ? [] : [position]));
}

function operatorOf(query: Pick<LogsQuery, 'operators'>, pair: TopicPair): TopicOperator {
  return query.operators[pair] ?? 'and';
}

/**
 * The topic positions every match of `query` has as given: the only one given, or either of a
 * pair joined by `and`. Empty when only `or` clauses join the given topics.
 */
export function requiredTopicPositions(query: Pick<LogsQuery, 'topics' | 'operators'>): number[] {
  const given = givenTopicPositions(query);
  if (given.length === 1) return given;
  const required = new Set<number>();
  for (const [pair, a, b] of TOPIC_PAIRS) {
    if (query.topics[a] !== undefined && query.topics[b] !== undefined && operatorOf(query, pair) === 'and') required.add(a).add(b);
  }
  return [...required].sort();
}

/** Whether `log` meets every clause of `query`'s topics (the contract and blocks aside). */
export function logMatchesTopics(log: Pick<StoredLog, 'topics'>, query: Pick<LogsQuery, 'topics' | 'operators'>): boolean {
  const is = (position: number) => log.topics[position] === query.topics[position];
  const given = givenTopicPositions(query);
  if (given.length === 1) return is(given[0]!);
  return TOPIC_PAIRS.every(([pair, a, b]) => {
    if (query.topics[a] === undefined || query.topics[b] === undefined) return true;
    return operatorOf(query, pair) === 'and' ? is(a) && is(b) : is(a) || is(b);
  });
}
