import type { ConsensusInfoRecord, FinalityStatusRecord, ValidatorRecord } from '../consensus/consensus-records.js';
import type { BlockBundle, Hex } from '../storage/index.js';

/** A chain reorganisation as the indexer handled it. */
export interface ReorgEvent {
  commonAncestor: { blockNumber: bigint; blockHash: Hex };
  /** Hashes of the blocks removed from storage, newest first. */
  removedBlockHashes: Hex[];
}

/** A transaction first seen in the node's pool. */
export interface PendingTransactionEvent {
  hash: Hex;
  from: Hex;
  to: Hex | null;
  value: bigint;
  gasPrice: bigint;
  gas: bigint;
  nonce: bigint;
  /** Unix seconds when ChainLens first saw it. */
  submittedAt: bigint;
}

/** A token's price after a block moved the reserves of one of its pools (`token_price`). */
export interface TokenPriceEvent {
  address: Hex;
  /** USD of one whole token, a decimal string. */
  priceUSD: string;
  /** Percent change against the price 24 h of chain time earlier; `null` without one. */
  change24h: string | null;
  /** The block's timestamp (Unix seconds), number and hash. */
  timestamp: bigint;
  blockNumber: bigint;
  blockHash: Hex;
}

/** Everything the indexer and trackers publish inside one process. */
export type ExplorerEvents = {
  /** A block was written to storage. */
  block: BlockBundle;
  /** Storage was rolled back to a common ancestor. */
  reorg: ReorgEvent;
  /**
   * A contract's verified source was stored (by this instance, or relayed from another): what
   * decodes its logs changed.
   */
  verified: { address: Hex };
  /** The trace pipeline wrote the traces of blocks through this one (the trace cursor moved). */
  traced: { blockNumber: bigint };
  /** A transaction entered the pending pool. */
  pendingTransaction: PendingTransactionEvent;
  /** A block moved a token's price (only while someone listens to this event). */
  tokenPrice: TokenPriceEvent;
  /** A block became final (`finality`; only while someone listens to this event). */
  finality: FinalityStatusRecord;
  /** A validator's record changed as blocks arrived (`validators`; only while someone listens). */
  validators: ValidatorRecord;
  /** The consensus state changed as blocks arrived (`consensus`; only while someone listens). */
  consensus: ConsensusInfoRecord;
};
