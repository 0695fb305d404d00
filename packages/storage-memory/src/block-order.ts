import type { OrdinalRange } from '@chainlens/core';

/** Index of the first item with `blockNumber >= number` in a list sorted by block (`list.length` if none). */
export function firstAtOrAbove(list: readonly { blockNumber: bigint }[], number: bigint): number {
  return firstNotBefore(list, (item) => item.blockNumber < number);
}

/** Index of the first item of a sorted list that `before` is false for (`list.length` if none): a binary search. */
export function firstNotBefore<T>(list: readonly T[], before: (item: T) => boolean, from = 0): number {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(list[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where and how much of a list sorted by block to answer. */
export interface BlockRangePage {
  /** Inclusive block range. */
  startBlock?: bigint;
  endBlock?: bigint;
  /** 1-based. */
  page: number;
  offset: number;
  sort: 'asc' | 'desc';
}

/**
 * The page of a list sorted by (blockNumber, …) within the inclusive block range: range bounds
 * are binary searches and the page is one slice (reversed for `desc`).
 */
export function pageInBlockRange<T extends { blockNumber: bigint }>(list: readonly T[], { startBlock, endBlock, page, offset, sort }: BlockRangePage): T[] {
  if (page < 1 || offset < 1) return [];
  const lo = startBlock === undefined ? 0 : firstAtOrAbove(list, startBlock);
  const hi = endBlock === undefined ? list.length : firstAtOrAbove(list, endBlock + 1n);
  const skip = (page - 1) * offset;
  const take = Math.min(offset, hi - lo - skip);
  if (take <= 0) return [];
  if (sort === 'asc') return list.slice(lo + skip, lo + skip + take);
  const result = new Array<T>(take);
  for (let i = 0; i < take; i++) result[i] = list[hi - 1 - skip - i]!;
  return result;
}

/** The entries `range` numbers (1 is `list`'s first) of a list in chain order: `Storage.listTokenTransferRange` and the like. */
export function ordinalSlice<T>(list: readonly T[], { first, last }: OrdinalRange): T[] {
  return first > last ? [] : list.slice(Math.max(first, 1) - 1, Math.max(last, 0));
}

/** Where a contract creation or internal transaction stands in its transaction's trace. */
export interface TracePosition {
  blockNumber: bigint;
  transactionIndex: number;
  traceIndex: number;
}

/** Chain order of what transactions' traces hold: block, transaction, then trace index. */
export function inTraceOrder(a: TracePosition, b: TracePosition): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  return a.transactionIndex - b.transactionIndex || a.traceIndex - b.traceIndex;
}

/**
 * Inserts `item` into `list` (sorted by `compare`) after every item not after it: an append when
 * it comes last, as it almost always does.
 */
export function insertInOrder<T>(list: T[], item: T, compare: (a: T, b: T) => number): void {
  let at = list.length;
  while (at > 0 && compare(list[at - 1]!, item) > 0) at--;
  if (at === list.length) list.push(item);
  else list.splice(at, 0, item);
}

/**
 * The keyset page of a list sorted in chain order: its items within the inclusive block range
 * strictly after `after` (`compare` orders an item against a position), at most `limit`; range
 * bounds and the position are binary searches.
 */
export function keysetSlice<T extends { blockNumber: bigint }, P>(
  list: readonly T[],
  { startBlock, endBlock, after, limit }: { startBlock?: bigint; endBlock?: bigint; after?: P; limit: number },
  compare: (item: T, position: P) => number,
): T[] {
  let lo = startBlock === undefined ? 0 : firstAtOrAbove(list, startBlock);
  const hi = endBlock === undefined ? list.length : firstAtOrAbove(list, endBlock + 1n);
  if (after !== undefined) lo = firstNotBefore(list, (item) => compare(item, after) <= 0, lo);
  return limit < 1 || lo >= hi ? [] : list.slice(lo, Math.min(hi, lo + limit));
}

/** Chain order of two (blockNumber, …indexes) positions. */
export function comparePositions(a: { blockNumber: bigint }, b: { blockNumber: bigint }, ...indexes: (readonly [number, number])[]): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  for (const [x, y] of indexes) if (x !== y) return x - y;
  return 0;
}
