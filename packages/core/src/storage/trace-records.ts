/**
 * What a written block's call traces add to it. The indexer writes a block from its receipts
 * first and reads its traces in a pipeline of their own, which follows the blocks and writes
 * them with `Storage.writeBlockTraces`.
 */
import type { StoredContractCreation } from './contract-records.js';
import type { StoredInternalTransaction } from './internal-transaction-records.js';
import type { Hex } from './records.js';

/** The traces of one written block. */
export interface BlockTraces {
  blockNumber: bigint;
  /** The block the traces were read from: they are stored only with that block. */
  blockHash: Hex;
  /** Contracts created inside its transactions (`traceIndex` from 1), in (`transactionIndex`, `traceIndex`) order. */
  contracts: StoredContractCreation[];
  /** In (`transactionIndex`, `traceIndex`) order. */
  internalTransactions: StoredInternalTransaction[];
}
