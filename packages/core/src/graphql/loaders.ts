import DataLoader from 'dataloader';
import type { TokenHoldersRecord } from '../services/index.js';
import type { Services } from '../explorer-services.js';
import type { BlockRecord, TransactionRecord } from '../services/format.js';
import { labelOf } from '../services/address-labels.js';
import type { Hex } from '../storage/index.js';

/**
 * Per-request batching: every block or transaction a query reaches, however deep, is read
 * together with the others the same tick reaches, in one storage round trip, and read once.
 */
export interface GraphqlLoaders {
  /** Blocks by number, shaped as REST's `block/getblock`. */
  blocks: DataLoader<bigint, BlockRecord | null, string>;
  /** Transactions by hash, shaped as REST's `/transaction/:hash`. */
  transactions: DataLoader<Hex, TransactionRecord | null>;
  /** A token's first page of ten holders, shaped as REST's `token/:address/holders`. */
  topHolders: DataLoader<Hex, TokenHoldersRecord>;
  /** Addresses' public labels (`null` without one): every account a query reaches in one lookup. */
  labels: DataLoader<Hex, string | null>;
}

/** Fresh loaders for one request (or one subscription event): nothing is cached across them. */
export function createLoaders(services: Services): GraphqlLoaders {
  return {
    blocks: new DataLoader((numbers: readonly bigint[]) => services.blocks.getMany(numbers), { cacheKeyFn: (number) => number.toString() }),
    transactions: new DataLoader((hashes: readonly Hex[]) => services.transactions.getMany([...hashes])),
    // Holders are read per token (no storage call takes several): the loader reads each once.
    topHolders: new DataLoader((tokens: readonly Hex[]) =>
      Promise.all(tokens.map((token) => services.tokens.holders(token, { page: 1, offset: 10 }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))))),
    ),
    labels: new DataLoader(async (addresses: readonly Hex[]) => {
      const labels = await services.labels.labelsOf(addresses);
      return addresses.map((address) => labelOf(labels, address));
    }),
  };
}
