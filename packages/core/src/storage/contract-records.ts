/**
 * Contract creations, as the indexer learns them from written blocks (and so taken back exactly
 * by rollbacks): a transaction's own creation from its receipt, and creations inside it
 * (CREATE/CREATE2 by a contract) from the node's call traces where the node offers them.
 */
import type { Hex } from './records.js';

/** One contract creation that took effect. */
export interface StoredContractCreation {
  address: Hex;
  /** Who executed the creation: the transaction's sender, or the contract whose code created it. */
  creator: Hex;
  transactionHash: Hex;
  blockNumber: bigint;
  transactionIndex: number;
  /**
   * 0 for the transaction's own creation (`to` empty); from 1, the creations inside it in the
   * trace's call order.
   */
  traceIndex: number;
}
