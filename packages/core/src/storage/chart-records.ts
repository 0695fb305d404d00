/**
 * Chart rollups as storage keeps them: what the blocks of one UTC hour or day added up to, kept
 * by every block write and taken back exactly by rollbacks, so a chart reads one row per point.
 */
import type { Hex } from './records.js';

/** The width of a chart's buckets. */
export type ChartResolution = 'hour' | 'day';

/** Seconds per bucket of each resolution; buckets start at multiples of it (UTC). */
export const BUCKET_SECONDS: Readonly<Record<ChartResolution, bigint>> = Object.freeze({ hour: 3_600n, day: 86_400n });

/** The start of the bucket of `resolution` holding Unix time `timestamp`. */
export function bucketOf(timestamp: bigint, resolution: ChartResolution): bigint {
  const width = BUCKET_SECONDS[resolution];
  const offset = timestamp % width;
  return timestamp - (offset < 0n ? offset + width : offset);
}

/** The chain's figures over one bucket: every stored block whose timestamp falls in it. */
export interface StoredChartRollup {
  /** Unix seconds the bucket starts at. */
  bucket: bigint;
  /** Stored blocks in the bucket (at least 1: a bucket without blocks has no rollup). */
  blocks: number;
  transactions: number;
  /** Gas used by the blocks. */
  gasUsed: bigint;
  /** The transactions' effective gas prices (Wei), summed: over `transactions`, the average. */
  gasPriceSum: bigint;
  /** Contracts created by the transactions themselves (as `ChainTotals.totalContracts` counts them). */
  newContracts: number;
  /** Token transfers, mints and burns included (an ERC-1155 batch counts each entry). */
  tokenTransfers: number;
  /** Addresses whose first transaction (as sender, recipient or created contract) is in the bucket. */
  newAddresses: number;
  /** Distinct addresses with a transaction (as sender, recipient or created contract) in the bucket. */
  activeAddresses: number;
}

/** The rollups of buckets starting within [`from`, `to`] (Unix seconds, inclusive). */
export interface ChartRollupsQuery {
  resolution: ChartResolution;
  from: bigint;
  to: bigint;
}

/** One token's figures over one bucket in which it moved. */
export interface StoredTokenRollup {
  bucket: bigint;
  /** The token's transfers in the bucket (at least 1). */
  transfers: number;
  /** Its holder count after the last of them. */
  holders: number;
}

/** {@link ChartRollupsQuery} of one token. */
export interface TokenRollupsQuery extends ChartRollupsQuery {
  token: Hex;
}

/** A token's rollups in a range, with the last one before it (where its holder count stood). */
export interface TokenRollupsPage {
  before: StoredTokenRollup | null;
  rollups: StoredTokenRollup[];
}
