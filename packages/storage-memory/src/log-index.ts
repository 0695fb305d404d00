import type { AddressLogsQuery, KeysetQuery, LogPosition, StoredLog } from '@chainlens/core';
import { comparePositions, keysetSlice, pageInBlockRange } from './block-order.js';

/**
 * Each contract's logs in chain order, also per first topic so an event filter pages without
 * scanning. Like the address index, appends push and rollbacks pop.
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
}

function keysOf(log: StoredLog): string[] {
  const topic0 = log.topics[0];
  return topic0 === undefined ? [log.address] : [log.address, `${log.address}:${topic0}`];
}

