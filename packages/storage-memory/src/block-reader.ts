import type { BlockBundle, BlockReader, ChainTotals, Hex, MinerBlocksQuery, StoredBlock } from '@chainlens/core';
import { ChainRole } from './chain-state.js';

/** Blocks one or many at a time, bundles, miners' blocks and chain totals, from the chain state. */
export class MemoryBlockReader extends ChainRole implements BlockReader {
  async getBlockByNumber(number: bigint): Promise<StoredBlock | null> {
    return this.state.blockAt(number)?.block ?? null;
  }

  async getBlockByHash(hash: Hex): Promise<StoredBlock | null> {
    return this.state.blocksByHash.get(hash)?.block ?? null;
  }

  async getBlockTransactionHashes(number: bigint): Promise<Hex[]> {
    return this.state.blockAt(number)?.transactions.map((tx) => tx.hash) ?? [];
  }

  async getBlockWithTransactionHashes(number: bigint): Promise<{ block: StoredBlock; transactionHashes: Hex[] } | null> {
    const entry = this.state.blockAt(number);
    return entry ? { block: entry.block, transactionHashes: entry.transactions.map((tx) => tx.hash) } : null;
  }

  async getBlocksWithTransactionHashes(numbers: bigint[]): Promise<({ block: StoredBlock; transactionHashes: Hex[] } | null)[]> {
    return Promise.all(numbers.map((number) => this.getBlockWithTransactionHashes(number)));
  }

  async getBlockBundle(number: bigint): Promise<BlockBundle | null> {
    const entry = this.state.blockAt(number);
    if (!entry) return null;
    const logs = entry.transactions.flatMap((tx) => this.state.transactions.get(tx.hash)!.logs);
    return {
      block: entry.block,
      transactions: [...entry.transactions],
      logs: logs.sort((a, b) => a.logIndex - b.logIndex),
      tokenTransfers: [...entry.tokenTransfers],
      pairs: [...entry.pairs],
      pairSyncs: [...entry.pairSyncs],
      pairSwaps: [...entry.pairSwaps],
      approvals: [...entry.approvals],
      contracts: [...entry.contracts],
      internalTransactions: [...entry.internalTransactions],
    };
  }

  async listMinerBlocks(query: MinerBlocksQuery): Promise<StoredBlock[]> {
    const mined = this.state.blocksByMiner.get(query.miner) ?? [];
    const end = mined.length - (query.page - 1) * query.offset;
    const result: StoredBlock[] = [];
    for (let i = end - 1; i >= 0 && i >= end - query.offset; i--) result.push(mined[i]!);
    return result;
  }

  async listRecentBlocks(limit: number): Promise<StoredBlock[]> {
    const count = Math.max(0, Math.min(limit, this.state.blocks.length));
    const result = new Array<StoredBlock>(count);
    for (let i = 0; i < count; i++) result[i] = this.state.blocks[this.state.blocks.length - 1 - i]!.block;
    return result;
  }

  async getChainTotals(): Promise<ChainTotals> {
    return {
      totalTransactions: this.state.totalTransactions,
      totalAccounts: this.state.addresses.size,
      totalContracts: this.state.totalContracts,
    };
  }
}
