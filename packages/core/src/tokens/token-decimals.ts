import type { IndexedHead } from '../events/indexed-head.js';
import type { Hex, TokenReader } from '../storage/index.js';
import type { TokenMetadataReader } from './token-metadata.js';

/** A token's decimals; `null` when its contract has none. */
export type DecimalsOf = (token: Hex) => Promise<number | null>;

/**
 * Decimals as the metadata indexer stored them, else (not read yet) as the contract answers at
 * the newest indexed block.
 */
export function tokenDecimals(storage: TokenReader, reader: TokenMetadataReader, head: IndexedHead): DecimalsOf {
  return async (token) => {
    const stored = await storage.getToken(token);
    if (stored?.metadata) return stored.metadata.decimals;
    return (await reader.metadata(token, await head.blockTag())).decimals;
  };
}
