import type { BlockBundle, Hex, PairSwapAmounts, PairSyncExtremes, StoredPair, StoredPairSync } from '@chainlens/core';

/**
 * Reference answers of the Storage pair reads, computed straight from bundles the way the
 * contract defines them (see reference.ts).
 */

/** Every pair created in `chain`, in chain order. */
export function chainPairs(chain: readonly BlockBundle[]): StoredPair[] {
  return chain.flatMap((bundle) => bundle.pairs);
}

/** Every address that emitted a sync or a swap in `chain`, and every created pair. */
export function chainPairAddresses(chain: readonly BlockBundle[]): Hex[] {
  const addresses = chain.flatMap((bundle) => [...bundle.pairs.map((p) => p.address), ...bundle.pairSyncs.map((s) => s.pair), ...bundle.pairSwaps.map((s) => s.pair)]);
  return [...new Set(addresses)];
}

export function referenceTokenPairs(chain: readonly BlockBundle[], token: Hex): StoredPair[] {
  return chainPairs(chain).filter((pair) => pair.token0 === token || pair.token1 === token);
}

function syncsOf(chain: readonly BlockBundle[], pair: Hex): StoredPairSync[] {
  return chain.flatMap((bundle) => bundle.pairSyncs.filter((sync) => sync.pair === pair));
}

export function referencePairSyncAt(chain: readonly BlockBundle[], pair: Hex, timestamp: bigint): StoredPairSync | null {
  return syncsOf(chain, pair).filter((sync) => sync.timestamp <= timestamp).at(-1) ?? null;
}

export function referencePairSyncExtremes(chain: readonly BlockBundle[], pair: Hex, from: bigint, to: bigint): PairSyncExtremes | null {
  const window = syncsOf(chain, pair).filter((s) => s.timestamp > from && s.timestamp <= to && s.reserve0 > 0n && s.reserve1 > 0n);
  if (window.length === 0) return null;
  // Exact ratio comparison by cross-multiplication; the earliest sync wins a tie.
  const above = (a: StoredPairSync, b: StoredPairSync) => a.reserve1 * b.reserve0 > b.reserve1 * a.reserve0;
  return {
    highest: window.reduce((best, sync) => (above(sync, best) ? sync : best)),
    lowest: window.reduce((best, sync) => (above(best, sync) ? sync : best)),
  };
}

export function referencePairSwapSums(chain: readonly BlockBundle[], pair: Hex, from: bigint, to: bigint): PairSwapAmounts {
  const sums: PairSwapAmounts = { amount0In: 0n, amount1In: 0n, amount0Out: 0n, amount1Out: 0n };
  for (const bundle of chain) {
    for (const swap of bundle.pairSwaps) {
      if (swap.pair !== pair || swap.timestamp <= from || swap.timestamp > to) continue;
      sums.amount0In += swap.amount0In;
      sums.amount1In += swap.amount1In;
      sums.amount0Out += swap.amount0Out;
      sums.amount1Out += swap.amount1Out;
    }
  }
  return sums;
}
