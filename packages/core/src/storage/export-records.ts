/**
 * Keyset pages for exports: an address's records in ascending chain order, strictly after the
 * position of the last record read, so a long export walks an index once instead of skipping
 * ever more rows page after page.
 */
import type { Hex } from './records.js';

/** Where an address's records are read from: its records in the block range after `after`. */
export interface KeysetQuery<Position> {
  address: Hex;
  /** Inclusive block range. */
  startBlock?: bigint;
  endBlock?: bigint;
  /** The position of the last record already read; from the start of the range when absent. */
  after?: Position;
  /** Most records to answer (positive). */
  limit: number;
}

/** A transaction's place in the chain. */
export interface TransactionPosition {
  blockNumber: bigint;
  transactionIndex: number;
}

/** An internal transaction's place in the chain. */
export interface TracePosition extends TransactionPosition {
  traceIndex: number;
}

/** A log's place in the chain. */
export interface LogPosition {
  blockNumber: bigint;
  logIndex: number;
}

/** A token transfer's place in the chain. */
export interface TransferPosition extends LogPosition {
  batchIndex: number;
}
