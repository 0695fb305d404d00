import type { ChartRollupsQuery, StoredChartRollup, TokenRollupsPage, TokenRollupsQuery } from '../chart-records.js';

/**
 * Chart rollups: kept by every block write (a block adds to the rollup of its UTC hour and of
 * its day) and taken back exactly by `rollbackTo`, so each equals what the stored blocks of its
 * bucket add up to. Reads MUST NOT scan blocks: they answer stored rollups.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface ChartReader {
  /** The rollups of buckets starting within the query's range, ascending by bucket (only buckets holding a stored block). */
  listChartRollups(query: ChartRollupsQuery): Promise<StoredChartRollup[]>;
  /**
   * One token's rollups of buckets starting within the range (only those in which it moved),
   * ascending, with its last rollup of a bucket before the range (`null` when none).
   */
  listTokenRollups(query: TokenRollupsQuery): Promise<TokenRollupsPage>;
}
