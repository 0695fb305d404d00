import type { ApprovalsQuery, StoredApproval } from '../approval-records.js';
import type { Hex, ListTip, OrdinalRange, StoredTokenTransfer } from '../records.js';
import type { AddressTokenBalancesQuery, AddressTokenTransfersQuery, StoredToken, StoredTokenBalance, TokenHoldersPage, TokenHoldersQuery, TokenSearchQuery, TokenTransfersQuery, TokensQuery } from '../token-records.js';

/**
 * Tokens, holders, their transfers and approvals: kept from the token transfers and approvals of
 * written blocks, so `rollbackTo` takes them back to exactly what writing the remaining blocks gives.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface TokenReader {
  /** A token with at least one stored transfer, else `null`. */
  getToken(address: Hex): Promise<StoredToken | null>;
  /** Tokens by holder count, then transfer count (both descending), then address; filtered and paged. */
  listTokens(query: TokensQuery): Promise<StoredToken[]>;
  /**
   * Tokens whose metadata name or symbol (as {@link setTokenMetadata} stored it) starts with
   * `prefix`, ignoring case: both sides are lowercased as `String.prototype.toLowerCase` does,
   * then compared exactly, every character literally (`%`, `_` and `\` are no wildcards). Those
   * whose name or symbol equals `prefix` (ignoring case) come first, then by holder count and
   * transfer count (both descending), then address; at most `limit` of them. An empty prefix
   * matches nothing. Names hold no NUL and no lone surrogate (the metadata reader keeps no such
   * text), so a prefix holding one matches nothing and MUST NOT throw. A database backend MUST
   * find the matches through an index on the lowercased texts, not by reading every token.
   */
  searchTokens(query: TokenSearchQuery): Promise<StoredToken[]>;
  /**
   * How many addresses held a positive balance of `token` once block `blockNumber` was written
   * (0 before its first transfer). With the current holder count, this tells how holding moved.
   */
  countTokenHoldersAt(token: Hex, blockNumber: bigint): Promise<number>;
  /**
   * Holders with a positive balance of at least `minBalance`, by balance descending then
   * address ascending, paged as {@link listAddressTransactions}; `total` counts every match.
   */
  listTokenHolders(query: TokenHoldersQuery): Promise<TokenHoldersPage>;
  /**
   * The tokens `holder` holds a positive balance of, by token address ascending, paged as
   * {@link listAddressTransactions}: the holder side of {@link listTokenHolders}, the same
   * balances and activity.
   */
  listAddressTokenBalances(query: AddressTokenBalancesQuery): Promise<StoredTokenBalance[]>;
  /**
   * A token's transfers filtered by sender, recipient and inclusive block range, ordered by
   * (blockNumber, logIndex, batchIndex) as `sort` says, then paged.
   */
  listTokenTransfers(query: TokenTransfersQuery): Promise<StoredTokenTransfer[]>;
  /**
   * How many transfers `token` has and the block of the newest, in one consistent read; `null`
   * when it has none. A database backend MUST read it from an index, not by counting.
   */
  getTokenTransferTip(token: Hex): Promise<ListTip | null>;
  /**
   * The transfers of `token` numbered `range.first` to `range.last` in chain order (as
   * {@link getTokenTransferTip} counts them), oldest first; ordinals below 1 or past the list's
   * length have none, so a range past the end resolves fewer or none. After a rollback the
   * ordinals of kept transfers are unchanged and a fork's transfers continue them. A database
   * backend MUST read only the range's entries, from an index on the ordinals.
   */
  listTokenTransferRange(token: Hex, range: OrdinalRange): Promise<StoredTokenTransfer[]>;
  /**
   * Token transfers with `address` as sender or recipient (a transfer to oneself once), of every
   * token or only `token`, of every standard or only `standard`, within the inclusive block
   * range, ordered by (blockNumber, logIndex, batchIndex) as `sort` says, then paged.
   */
  listAddressTokenTransfers(query: AddressTokenTransfersQuery): Promise<StoredTokenTransfer[]>;
  /**
   * How many token transfers have `address` as sender or recipient; a transfer to oneself counts
   * once.
   */
  countAddressTokenTransfers(address: Hex): Promise<number>;
  /**
   * An owner's standing approvals: per (token, spender, kind), the latest stored approval (by
   * block, then logIndex) when its value is not zero, ordered newest first (block, then
   * logIndex, descending), then paged as {@link listAddressTransactions}. Rollbacks take
   * approvals back with their blocks, so an earlier one stands again.
   */
  listApprovals(query: ApprovalsQuery): Promise<StoredApproval[]>;
}
