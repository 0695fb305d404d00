import type { Hex, PairReader, PairSwapAmounts, PairSyncExtremes, StoredPair, StoredPairSync } from '@chainlens/core';
import { ChainRole } from './chain-state.js';

/** DEX pairs and their price history, from the chain state. */
export class MemoryPairReader extends ChainRole implements PairReader {
  async listTokenPairs(token: Hex): Promise<StoredPair[]> {
    return this.state.dex.pairsOf(token);
  }

  async getPairSyncAt(pair: Hex, timestamp: bigint): Promise<StoredPairSync | null> {
    return this.state.dex.syncAt(pair, timestamp);
  }

  async getPairSyncsAt(pair: Hex, timestamps: bigint[]): Promise<(StoredPairSync | null)[]> {
    return timestamps.map((timestamp) => this.state.dex.syncAt(pair, timestamp));
  }

  async getPairSyncExtremes(pair: Hex, from: bigint, to: bigint): Promise<PairSyncExtremes | null> {
    return this.state.dex.syncExtremes(pair, from, to);
  }

  async sumPairSwaps(pair: Hex, from: bigint, to: bigint): Promise<PairSwapAmounts> {
    return this.state.dex.sumSwaps(pair, from, to);
  }
}
