import type { Hex } from '../records.js';
import type { StoredTokenMetadata } from '../token-records.js';

/**
 * What token contracts say about themselves (name, symbol, decimals), filled in after their
 * first transfer is written.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface TokenMetadataStorage {
  /** Up to `limit` tokens whose metadata has not been set, earliest first. */
  listTokensWithoutMetadata(limit: number): Promise<Hex[]>;
  /**
   * Records what a token's contract says about itself. Ignored for an unknown token; a token
   * rolled away and seen again starts without metadata.
   */
  setTokenMetadata(address: Hex, metadata: StoredTokenMetadata): Promise<void>;
}
