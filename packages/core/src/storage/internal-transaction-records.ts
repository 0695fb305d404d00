/**
 * Internal transactions (Etherscan's term): value moved, contracts created and self-destructs
 * inside a transaction, below its top-level call. The indexer takes them from the call traces it
 * reads while ingesting, so they are written with their block and taken back exactly by rollbacks.
 */
import type { Hex } from './records.js';

/** The kind of frame, as Etherscan's `type` field names it. */
export type InternalTransactionType = 'call' | 'callcode' | 'create' | 'create2' | 'selfdestruct';

/** One internal transaction of a successful transaction. */
export interface StoredInternalTransaction {
  blockNumber: bigint;
  transactionIndex: number;
  /** Order within its transaction, from 0, in call order. */
  traceIndex: number;
  /** Position in the call tree: child indexes from the top call down, joined by `_` (`0_1`). */
  traceId: string;
  transactionHash: Hex;
  /** The block's timestamp (Unix seconds). */
  timestamp: bigint;
  type: InternalTransactionType;
  from: Hex;
  /** The callee, the beneficiary of a self-destruct, or the created contract's address; `null` when the trace names none. */
  to: Hex | null;
  value: bigint;
  gas: bigint;
  gasUsed: bigint;
  /** Why the frame, or one around it, failed (`execution reverted`, `out of gas`, …): its effects were undone. `null` when it took effect. */
  error: string | null;
}

/** Filter and page of internal transactions. */
export interface InternalTransactionsQuery {
  /** Only those with this address as sender or recipient (a creation's recipient is the created contract); every one when absent. */
  address?: Hex;
  /** Inclusive block range. */
  startBlock?: bigint;
  endBlock?: bigint;
  /** 1-based. */
  page: number;
  offset: number;
  sort: 'asc' | 'desc';
}
