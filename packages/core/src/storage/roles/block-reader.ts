import type { BlockBundle, ChainTotals, Hex, MinerBlocksQuery, StoredBlock } from '../records.js';

/**
 * Blocks as written, one or many at a time, and the totals over all of them.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface BlockReader {
  getBlockByNumber(number: bigint): Promise<StoredBlock | null>;
  getBlockByHash(hash: Hex): Promise<StoredBlock | null>;
  /** The hashes of a block's transactions, in index order (empty for an unknown block). */
  getBlockTransactionHashes(number: bigint): Promise<Hex[]>;
  /** {@link getBlockByNumber} and {@link getBlockTransactionHashes} of one block in one round trip and one snapshot; `null` for an unknown block. */
  getBlockWithTransactionHashes(number: bigint): Promise<{ block: StoredBlock; transactionHashes: Hex[] } | null>;
  /** {@link getBlockWithTransactionHashes} of many blocks in one round trip: in input order, `null` for unknown numbers. */
  getBlocksWithTransactionHashes(numbers: bigint[]): Promise<({ block: StoredBlock; transactionHashes: Hex[] } | null)[]>;
  /**
   * Everything block `number` brought, as it was written (transactions in index order, logs in
   * `logIndex` order), or `null` for an unknown block. Lets other instances and replays rebuild
   * the indexer's events from storage.
   */
  getBlockBundle(number: bigint): Promise<BlockBundle | null>;
  /** The newest `limit` blocks, newest first. */
  listRecentBlocks(limit: number): Promise<StoredBlock[]>;
  /**
   * The blocks whose miner (fee recipient) is `miner`, newest first, paged as
   * {@link listAddressTransactions}. A database backend MUST find them through an index on the
   * miner, not by reading every block.
   */
  listMinerBlocks(query: MinerBlocksQuery): Promise<StoredBlock[]>;
  /** Totals over all stored blocks; rollbacks take back what they remove. */
  getChainTotals(): Promise<ChainTotals>;
}
