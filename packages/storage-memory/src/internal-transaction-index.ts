import type { Hex, InternalTransactionsQuery, KeysetQuery, StoredInternalTransaction, TracePosition } from '@chainlens/core';
import { inTraceOrder, insertInOrder, keysetSlice, pageInBlockRange } from './block-order.js';

/**
 * Internal transactions in chain order, all of them and per address (sender and recipient).
 * They are added in order but for a block's traces that arrive after later blocks' (written with
 * those blocks), which are inserted in place; rollbacks take blocks from the top, whose internal
 * transactions are the last ones, so they pop.
 */
export class InternalTransactionIndex {
  readonly #all: StoredInternalTransaction[] = [];
  readonly #byAddress = new Map<Hex, StoredInternalTransaction[]>();

  add(internal: StoredInternalTransaction): void {
    insertInOrder(this.#all, internal, inTraceOrder);
    for (const address of involved(internal)) {
      const list = this.#byAddress.get(address);
      if (list) insertInOrder(list, internal, inTraceOrder);
      else this.#byAddress.set(address, [internal]);
    }
  }

  /** Takes back the last {@link add}, which must have added `internal`. */
  removeLast(internal: StoredInternalTransaction): void {
    this.#all.pop();
    for (const address of involved(internal)) {
      const list = this.#byAddress.get(address)!;
      list.pop();
      if (list.length === 0) this.#byAddress.delete(address);
    }
  }

  /** The address's internal transactions after a position, ascending (see `Storage.listAddressInternalTransactionsAfter`). */
  listAfter(query: KeysetQuery<TracePosition>): StoredInternalTransaction[] {
    return keysetSlice(this.#byAddress.get(query.address) ?? [], query, inTraceOrder);
  }

  list(query: InternalTransactionsQuery): StoredInternalTransaction[] {
    const list = query.address === undefined ? this.#all : (this.#byAddress.get(query.address) ?? []);
    return pageInBlockRange(list, query);
  }
}

/** Its sender and recipient, once when they are one address. */
function involved({ from, to }: StoredInternalTransaction): Hex[] {
  return to === null || to === from ? [from] : [from, to];
}
