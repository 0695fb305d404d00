import type { PairSwapAmounts, PairSyncExtremes, StoredPair, StoredPairSync } from '../dex-records.js';
import type { Hex } from '../records.js';

/**
 * Uniswap-V2-style pairs and their price history: kept from the pair events of written blocks,
 * taken back exactly by `rollbackTo`. Time windows are block timestamps, `from` exclusive and
 * `to` inclusive; block timestamps never decrease along the chain.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface PairReader {
  /** Pairs with `token` as token0 or token1, from any factory, in creation order (block, logIndex). */
  listTokenPairs(token: Hex): Promise<StoredPair[]>;
  /** The pair's last sync (by block, then logIndex) in a block at or before `timestamp`, else `null`. */
  getPairSyncAt(pair: Hex, timestamp: bigint): Promise<StoredPairSync | null>;
  /**
   * The pair's last sync (by block, then logIndex) in a block at or before each of `timestamps`,
   * in input order, `null` where none: {@link getPairSyncAt} of many times in one round trip.
   */
  getPairSyncsAt(pair: Hex, timestamps: bigint[]): Promise<(StoredPairSync | null)[]>;
  /** The pair's syncs of highest and lowest `reserve1 / reserve0` within (`from`, `to`]; `null` when none has both reserves positive. */
  getPairSyncExtremes(pair: Hex, from: bigint, to: bigint): Promise<PairSyncExtremes | null>;
  /** Each amount of the pair's swaps within (`from`, `to`], summed (zeros when none). */
  sumPairSwaps(pair: Hex, from: bigint, to: bigint): Promise<PairSwapAmounts>;
}
