/**
 * Token records as storage keeps them, all derived from the token transfers of written blocks
 * (and so taken back exactly by rollbacks). Amounts are `bigint`; times are block timestamps.
 */
import type { Hex, StoredTransferWithTransaction, TokenStandard } from './records.js';

/** What a token contract says about itself; `null` where it does not answer (sensibly). */
export interface StoredTokenMetadata {
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  /**
   * The interfaces it declares through ERC-165 `supportsInterface`, by name (`ERC-165`,
   * `ERC-721`, `ERC-1155`, …), in a fixed order; empty for a contract without ERC-165.
   */
  interfaces: string[];
}

/** A token contract, known from its first transfer on. */
export interface StoredToken {
  address: Hex;
  /** The standard of its first transfer. */
  standard: TokenStandard;
  /** Block of its first transfer. */
  firstBlock: bigint;
  /** Every transfer of the token, mints and burns included. */
  transferCount: number;
  /** Addresses holding a positive balance (the zero address never counts). */
  holderCount: number;
  /** Read from the contract after the token appeared; `null` until then. */
  metadata: StoredTokenMetadata | null;
}

/**
 * A page of token transfers, each with its transaction, and the stored token of each of them
 * (each token once, in no order): what a page of several tokens needs to name them, read with it.
 */
export interface TransferPageWithTokens {
  transfers: StoredTransferWithTransaction[];
  tokens: StoredToken[];
}

/**
 * What an address holds of one token: ERC-20 base units, ERC-721 tokens, or ERC-1155 units over
 * all ids. Every transfer moves `value` from sender to recipient; the zero address (mint source,
 * burn sink) has no balance.
 */
export interface StoredTokenHolder {
  holder: Hex;
  balance: bigint;
  /** Timestamps of the first and the latest transfer of this token to or from the holder. */
  firstSeen: bigint;
  lastActivity: bigint;
}

/** A page of the tokens one address holds. */
export interface AddressTokenBalancesQuery {
  holder: Hex;
  page: number;
  offset: number;
}

/** One token an address holds: its balance there, first and latest activity as in {@link StoredTokenHolder}. */
export interface StoredTokenBalance {
  token: Hex;
  balance: bigint;
  firstSeen: bigint;
  lastActivity: bigint;
}

/** A page of a token's holders. */
export interface TokenHoldersQuery {
  token: Hex;
  /** Only holders with at least this balance (default: any positive balance). */
  minBalance?: bigint;
  page: number;
  offset: number;
}

/** A page of holders, with how many match the query in all. */
export interface TokenHoldersPage {
  total: number;
  holders: StoredTokenHolder[];
}

/** Filter and page of a token's transfers. */
export interface TokenTransfersQuery {
  token: Hex;
  from?: Hex;
  to?: Hex;
  /** Inclusive block range. */
  startBlock?: bigint;
  endBlock?: bigint;
  page: number;
  offset: number;
  sort: 'asc' | 'desc';
}

/** Filter and page of the token transfers an address sent or received. */
export interface AddressTokenTransfersQuery {
  address: Hex;
  /** Only this token's transfers. */
  token?: Hex;
  /** Only transfers of this standard. */
  standard?: TokenStandard;
  /** Inclusive block range. */
  startBlock?: bigint;
  endBlock?: bigint;
  page: number;
  offset: number;
  sort: 'asc' | 'desc';
}

/** A page of tokens, most held first. */
export interface TokensQuery {
  limit: number;
  offset?: number;
  /** Only these tokens. */
  include?: Hex[];
  /** None of these tokens. */
  exclude?: Hex[];
}

/** Tokens named or symbolized by a prefix, best first (see `Storage.searchTokens`). */
export interface TokenSearchQuery {
  /** Compared with each token's name and symbol ignoring case; taken literally (no wildcards). */
  prefix: string;
  limit: number;
}
