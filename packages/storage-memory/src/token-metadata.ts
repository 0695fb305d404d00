import type { Hex, StoredTokenMetadata, TokenMetadataStorage } from '@chainlens/core';
import { ChainRole } from './chain-state.js';

/** What token contracts say about themselves, kept beside their tokens in the chain state. */
export class MemoryTokenMetadata extends ChainRole implements TokenMetadataStorage {
  async listTokensWithoutMetadata(limit: number): Promise<Hex[]> {
    return this.state.tokens.withoutMetadata(limit);
  }

  async setTokenMetadata(address: Hex, metadata: StoredTokenMetadata): Promise<void> {
    this.state.tokens.setMetadata(address, metadata);
  }
}
