import type { Hex, PairSwapAmounts, PairSyncExtremes, StoredPair, StoredPairSwap, StoredPairSync } from '@chainlens/core';

/** A swap with the sums of its pair's swaps up to and including it, so a window sums in O(log n). */
interface SwapEntry {
  readonly swap: StoredPairSwap;
  readonly through: PairSwapAmounts;
}

const NO_AMOUNTS: PairSwapAmounts = Object.freeze({ amount0In: 0n, amount1In: 0n, amount0Out: 0n, amount1Out: 0n });

/**
 * Pairs, their syncs and swaps, kept in chain order like the token index: blocks come in order
 * and leave from the top, so every change is an append taken back by a pop.
 */
export class DexIndex {
  /** Pairs by token (both sides), in creation order. */
  readonly #pairsByToken = new Map<Hex, StoredPair[]>();
  readonly #syncs = new Map<Hex, StoredPairSync[]>();
  readonly #swaps = new Map<Hex, SwapEntry[]>();

  addPair(pair: StoredPair): void {
    for (const token of sidesOf(pair)) append(this.#pairsByToken, token, pair);
  }

  removeLastPair(pair: StoredPair): void {
    for (const token of sidesOf(pair)) popLast(this.#pairsByToken, token);
  }

  addSync(sync: StoredPairSync): void {
    append(this.#syncs, sync.pair, sync);
  }

  removeLastSync(sync: StoredPairSync): void {
    popLast(this.#syncs, sync.pair);
  }

  addSwap(swap: StoredPairSwap): void {
    const previous = this.#swaps.get(swap.pair)?.at(-1)?.through ?? NO_AMOUNTS;
    const through = Object.freeze({
      amount0In: previous.amount0In + swap.amount0In,
      amount1In: previous.amount1In + swap.amount1In,
      amount0Out: previous.amount0Out + swap.amount0Out,
      amount1Out: previous.amount1Out + swap.amount1Out,
    });
    append(this.#swaps, swap.pair, { swap, through });
  }

  removeLastSwap(swap: StoredPairSwap): void {
    popLast(this.#swaps, swap.pair);
  }

  pairsOf(token: Hex): StoredPair[] {
    return [...(this.#pairsByToken.get(token) ?? [])];
  }

  syncAt(pair: Hex, timestamp: bigint): StoredPairSync | null {
    const syncs = this.#syncs.get(pair) ?? [];
    return syncs[firstAfter(syncs, timestamp, (sync) => sync.timestamp) - 1] ?? null;
  }

  syncExtremes(pair: Hex, from: bigint, to: bigint): PairSyncExtremes | null {
    const syncs = this.#syncs.get(pair) ?? [];
    const end = firstAfter(syncs, to, (sync) => sync.timestamp);
    let highest: StoredPairSync | null = null;
    let lowest: StoredPairSync | null = null;
    for (let i = firstAfter(syncs, from, (sync) => sync.timestamp); i < end; i++) {
      const sync = syncs[i]!;
      if (sync.reserve0 === 0n || sync.reserve1 === 0n) continue;
      if (highest === null || compareRatio(sync, highest) > 0) highest = sync;
      if (lowest === null || compareRatio(sync, lowest) < 0) lowest = sync;
    }
    return highest && lowest && { highest, lowest };
  }

  sumSwaps(pair: Hex, from: bigint, to: bigint): PairSwapAmounts {
    const swaps = this.#swaps.get(pair) ?? [];
    if (to <= from) return { ...NO_AMOUNTS };
    const before = swaps[firstAfter(swaps, from, (entry) => entry.swap.timestamp) - 1]?.through ?? NO_AMOUNTS;
    const through = swaps[firstAfter(swaps, to, (entry) => entry.swap.timestamp) - 1]?.through ?? NO_AMOUNTS;
    return {
      amount0In: through.amount0In - before.amount0In,
      amount1In: through.amount1In - before.amount1In,
      amount0Out: through.amount0Out - before.amount0Out,
      amount1Out: through.amount1Out - before.amount1Out,
    };
  }
}

function sidesOf(pair: StoredPair): Hex[] {
  return pair.token0 === pair.token1 ? [pair.token0] : [pair.token0, pair.token1];
}

function append<T>(map: Map<Hex, T[]>, key: Hex, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

function popLast<T>(map: Map<Hex, T[]>, key: Hex): void {
  const list = map.get(key)!;
  list.pop();
  if (list.length === 0) map.delete(key);
}

/** `reserve1 / reserve0` of `a` against `b`'s, exactly (reserves positive): cross-multiplied. */
function compareRatio(a: StoredPairSync, b: StoredPairSync): number {
  const left = a.reserve1 * b.reserve0;
  const right = b.reserve1 * a.reserve0;
  return left === right ? 0 : left > right ? 1 : -1;
}

/** Index of the first item whose time is after `timestamp`, in a list whose times never decrease. */
function firstAfter<T>(list: readonly T[], timestamp: bigint, timeOf: (item: T) => bigint): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timeOf(list[mid]!) <= timestamp) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
