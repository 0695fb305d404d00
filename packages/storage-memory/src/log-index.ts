import { givenTopicPositions, logMatchesTopics, requiredTopicPositions, type AddressLogsQuery, type Hex, type KeysetQuery, type ListTip, type LogPosition, type OrdinalRange, type LogsQuery, type StoredLog } from '@chainlens/core';
import { comparePositions, firstAtOrAbove, keysetSlice, ordinalSlice, pageInBlockRange } from './block-order.js';

/**
 * Each contract's logs in chain order, also per first topic so an event filter pages without
 * scanning, and every log per (topic position, topic) so a search by topics alone reads only the
 * logs having one of them. Like the address index, appends push and rollbacks pop.
 */
export class LogIndex {
  readonly #byKey = new Map<string, StoredLog[]>();

  add(log: StoredLog): void {
    for (const key of keysOf(log)) {
      const list = this.#byKey.get(key);
      if (list) list.push(log);
      else this.#byKey.set(key, [log]);
    }
  }

  /** Takes back the last {@link add} of this log. */
  removeLast(log: StoredLog): void {
    for (const key of keysOf(log)) {
      const list = this.#byKey.get(key)!;
      list.pop();
      if (list.length === 0) this.#byKey.delete(key);
    }
  }

  listAfter(query: KeysetQuery<LogPosition>): StoredLog[] {
    return keysetSlice(this.#byKey.get(query.address) ?? [], query, (log, at) => comparePositions(log, at, [log.logIndex, at.logIndex]));
  }

  list(query: AddressLogsQuery): StoredLog[] {
    const key = query.topic0 === undefined ? query.address : `${query.address}:${query.topic0}`;
    return pageInBlockRange(this.#byKey.get(key) ?? [], query);
  }

  /** `Storage.getAddressLogTip`: the length of the contract's list and its last log's block. */
  tip(address: Hex): ListTip | null {
    const list = this.#byKey.get(address);
    return list ? { length: list.length, blockNumber: list.at(-1)!.blockNumber } : null;
  }

  /** `Storage.listAddressLogRange`. */
  range(address: Hex, range: OrdinalRange): StoredLog[] {
    return ordinalSlice(this.#byKey.get(address) ?? [], range);
  }

  /** `Storage.listLogs`: reads the shortest list every match is on, or merges the lists of `or`-joined topics. */
  listLogs(query: LogsQuery): StoredLog[] {
    const given = givenTopicPositions(query);
    if ((query.address === undefined && given.length === 0) || query.page < 1 || query.offset < 1) return [];
    const required = requiredTopicPositions(query);
    const listOf = (key: string) => inRange(this.#byKey.get(key) ?? [], query);
    let candidates: readonly StoredLog[];
    if (query.address !== undefined) {
      candidates = listOf(required.includes(0) ? `${query.address}:${query.topics[0]}` : query.address);
    } else if (required.length > 0) {
      candidates = required.map((position) => listOf(topicKey(position, query.topics[position]!))).reduce((a, b) => (b.length < a.length ? b : a));
    } else {
      candidates = merged(given.map((position) => listOf(topicKey(position, query.topics[position]!))));
    }
    const skip = (query.page - 1) * query.offset;
    const page: StoredLog[] = [];
    let matched = 0;
    for (const log of candidates) {
      if (!logMatchesTopics(log, query)) continue;
      if (matched++ < skip) continue;
      page.push(log);
      if (page.length === query.offset) break;
    }
    return page;
  }
}

function topicKey(position: number, topic: string): string {
  return `${position}#${topic}`;
}

/** The part of a list in chain order within the query's inclusive block range. */
function inRange(list: readonly StoredLog[], { startBlock, endBlock }: Pick<LogsQuery, 'startBlock' | 'endBlock'>): readonly StoredLog[] {
  const lo = startBlock === undefined ? 0 : firstAtOrAbove(list, startBlock);
  const hi = endBlock === undefined ? list.length : firstAtOrAbove(list, endBlock + 1n);
  return lo === 0 && hi === list.length ? list : list.slice(lo, hi);
}

/** Lists in chain order merged into one, each log once (a log is on the list of each topic it has). */
function merged(lists: readonly (readonly StoredLog[])[]): StoredLog[] {
  const all = [...new Set(lists.flat())];
  return all.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
}

function keysOf(log: StoredLog): string[] {
  const topic0 = log.topics[0];
  const keys = topic0 === undefined ? [log.address] : [log.address, `${log.address}:${topic0}`];
  log.topics.forEach((topic, position) => keys.push(topicKey(position, topic)));
  return keys;
}

