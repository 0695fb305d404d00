import type { IndexerCursor } from '../records.js';

/**
 * How far the chain is stored: the last block written and the block through which its traces are.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface ChainCursors {
  /** The last block written, or `null` before the first write. */
  getCursor(): Promise<IndexerCursor | null>;
  /**
   * The block through which every written block's traces are stored. Writing the first block
   * sets it to that block's number less one (nothing traced yet); {@link writeBlockTraces} moves
   * it up; {@link rollbackTo} takes it back to the rollback point when it was above it, and
   * clears it with the last block. `null` while no block is stored.
   */
  getTraceCursor(): Promise<bigint | null>;
}
