import type { AddressTransactionsQuery, Hex, KeysetQuery, StoredTransaction, TransactionPosition, TransactionsBetweenQuery } from '@chainlens/core';
import { comparePositions, keysetSlice, pageInBlockRange } from './block-order.js';

/**
 * Per-address lists of transactions in chain order. Blocks are appended in order and rolled back
 * from the top, so each list stays sorted by (blockNumber, transactionIndex): appends push,
 * rollbacks pop, range bounds are binary searches and a page is one slice.
 */
export class AddressIndex {
  readonly #byAddress = new Map<Hex, StoredTransaction[]>();

  /** Distinct addresses with at least one transaction. */
  get size(): number {
    return this.#byAddress.size;
  }

  /** Appends a transaction to the lists of its sender, recipient and created contract. */
  add(tx: StoredTransaction): void {
    for (const address of involved(tx)) {
      const list = this.#byAddress.get(address);
      if (list) list.push(tx);
      else this.#byAddress.set(address, [tx]);
    }
  }

  /** Takes back the last {@link add}: `tx` must be the newest transaction of its addresses. */
  removeLast(tx: StoredTransaction): void {
    for (const address of involved(tx)) {
      const list = this.#byAddress.get(address);
      if (list?.at(-1) !== tx) throw new Error(`address index out of order for ${address} at ${tx.hash}`);
      list.pop();
      if (list.length === 0) this.#byAddress.delete(address);
    }
  }

  /** The address's transactions in the inclusive block range, sorted and paged as the query says. */
  list(query: AddressTransactionsQuery): StoredTransaction[] {
    return pageInBlockRange(this.#byAddress.get(query.address) ?? [], query);
  }

  /** The address's transactions after a position, ascending (see `Storage.listAddressTransactionsAfter`). */
  listAfter(query: KeysetQuery<TransactionPosition>): StoredTransaction[] {
    return keysetSlice(this.#byAddress.get(query.address) ?? [], query, (tx, at) => comparePositions(tx, at, [tx.transactionIndex, at.transactionIndex]));
  }

  /** The transactions both addresses take part in: the shorter list, filtered by the other address. */
  between({ address, counterparty, ...page }: TransactionsBetweenQuery): StoredTransaction[] {
    const mine = this.#byAddress.get(address) ?? [];
    const theirs = this.#byAddress.get(counterparty) ?? [];
    const [shorter, other] = mine.length <= theirs.length ? [mine, counterparty] : [theirs, address];
    return pageInBlockRange(
      shorter.filter((tx) => involved(tx).includes(other)),
      page,
    );
  }

  /** How many transactions `address` has, with its first and last, or `undefined` if none. */
  span(address: Hex): { count: number; first: StoredTransaction; last: StoredTransaction } | undefined {
    const list = this.#byAddress.get(address);
    return list && { count: list.length, first: list[0]!, last: list.at(-1)! };
  }
}

/** The distinct addresses a transaction touches: sender, recipient, created contract. */
export function involved(tx: StoredTransaction): Hex[] {
  const addresses: Hex[] = [tx.from];
  if (tx.to !== null && tx.to !== tx.from) addresses.push(tx.to);
  if (tx.contractAddress !== null && !addresses.includes(tx.contractAddress)) addresses.push(tx.contractAddress);
  return addresses;
}
