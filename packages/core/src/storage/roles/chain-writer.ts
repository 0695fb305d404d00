import type { BlockBundle } from '../records.js';
import type { BlockTraces } from '../trace-records.js';
import type { ChainCursors } from './chain-cursors.js';

/**
 * Writes the chain as the indexers read it: blocks (with all they bring), their traces, and
 * rollbacks. Every other role's chain data is derived from these writes, and taken back by
 * {@link ChainWriter.rollbackTo} exactly.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface ChainWriter extends ChainCursors {
  /**
   * Writes one block's bundle and moves the cursor to it, atomically: after a crash either all
   * of it and the new cursor are stored, or none. The block MUST be the cursor's child
   * (`number = cursor.number + 1`, `parentHash = cursor.hash`) unless there is no cursor yet;
   * otherwise it MUST throw without writing anything.
   */
  writeBlock(bundle: BlockBundle): Promise<void>;
  /**
   * {@link writeBlock} of consecutive bundles as one write: the first MUST be the cursor's child
   * and each the child of the one before it, and after a crash either all of them and the cursor
   * at the last are stored, or none. Otherwise it MUST throw without writing anything. Lets a
   * catch-up far behind the head write several blocks per transaction. An empty list is a no-op.
   */
  writeBlocks(bundles: BlockBundle[]): Promise<void>;
  /**
   * Removes every block above `blockNumber` with all it brought (transactions, logs, token
   * transfers, approvals, pair events, contract creations, internal transactions, address
   * entries, totals, chart rollups, traces) and moves the cursor to `blockNumber` (and the trace cursor, when above it),
   * atomically. A `blockNumber` below the first stored block clears everything and both cursors.
   * Rolling back to or above the cursor is a no-op.
   */
  rollbackTo(blockNumber: bigint): Promise<void>;
  /**
   * Stores the traces of written blocks (the contracts created inside their transactions and
   * their internal transactions) and moves the trace cursor to the last of them, atomically. The
   * entries MUST be consecutive blocks from the one after the trace cursor, each stored with the
   * entry's `blockHash`; each creation and internal transaction MUST name a transaction of its
   * block by hash and index and carry its block's number (and timestamp), both kinds ascend in
   * (`transactionIndex`, `traceIndex`), and a creation's `traceIndex` is at least 1 (0 is the
   * transaction's own, written with the block). Otherwise it MUST throw, writing nothing. Reads
   * then answer the traced rows as if the block had been written with them. An empty list is a
   * no-op. A block written with its traces (a writer that traces inline) MUST NOT be traced again.
   */
  writeBlockTraces(traces: BlockTraces[]): Promise<void>;
}
