/**
 * Uniswap-V2-style exchange records, decoded from the logs of written blocks (and so taken back
 * exactly by rollbacks). Storage keeps the raw reserves and amounts; prices are derived from
 * them, so a price history is exact and can be recomputed with another quote price.
 */
import type { Hex } from './records.js';

/** A pair, from its factory's `PairCreated(token0, token1, pair, n)` log. */
export interface StoredPair {
  address: Hex;
  /** The contract that emitted `PairCreated`. */
  factory: Hex;
  token0: Hex;
  token1: Hex;
  blockNumber: bigint;
  logIndex: number;
}

/** A pair's reserves after one `Sync(reserve0, reserve1)` log: one point of its price history. */
export interface StoredPairSync {
  pair: Hex;
  blockNumber: bigint;
  logIndex: number;
  /** Block timestamp (Unix seconds). */
  timestamp: bigint;
  reserve0: bigint;
  reserve1: bigint;
}

/** The amounts of one `Swap` log, in base units of the pair's tokens. */
export interface PairSwapAmounts {
  amount0In: bigint;
  amount1In: bigint;
  amount0Out: bigint;
  amount1Out: bigint;
}

/** One `Swap(sender, amount0In, amount1In, amount0Out, amount1Out, to)` log of a pair. */
export interface StoredPairSwap extends PairSwapAmounts {
  pair: Hex;
  blockNumber: bigint;
  logIndex: number;
  /** Block timestamp (Unix seconds). */
  timestamp: bigint;
}

/**
 * The syncs of a time window whose price of token0 in token1 (`reserve1 / reserve0`) is highest
 * and lowest, among syncs with both reserves positive; the earliest wins a tie.
 */
export interface PairSyncExtremes {
  highest: StoredPairSync;
  lowest: StoredPairSync;
}
