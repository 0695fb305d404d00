import type { ApiKeyCap, ApiKeyChanges, ApiKeyWithOwner, CounterHit, StoredApiKey, StoredUser, UserChanges } from './account-records.js';
import type { ApprovalsQuery, StoredApproval } from './approval-records.js';
import type { ChartRollupsQuery, StoredChartRollup, TokenRollupsPage, TokenRollupsQuery } from './chart-records.js';
import type { StoredContractCreation } from './contract-records.js';
import type { KeysetQuery, LogPosition, TracePosition, TransactionPosition, TransferPosition } from './export-records.js';
import type { LogsQuery } from './log-topic-records.js';
import type { PrivateLabelCap, StoredAddressLabel, StoredPrivateLabel } from './label-records.js';
import type { PairSwapAmounts, PairSyncExtremes, StoredPair, StoredPairSync } from './dex-records.js';
import type { InternalTransactionsQuery, StoredInternalTransaction } from './internal-transaction-records.js';
import type { StoredMetadataProfile } from './metadata-records.js';
import type { BlockTraces } from './trace-records.js';
import type { StoredVerificationJob, StoredVerifiedContract } from './verification-records.js';
import type { WebhookStorage } from './webhook-storage.js';
import type {
  AddressActivity,
  AddressLogsQuery,
  AddressTransactionsQuery,
  MinerBlocksQuery,
  BlockBundle,
  ChainTotals,
  Hex,
  IndexerCursor,
  StoredBlock,
  StoredLog,
  StoredTokenTransfer,
  StoredTransaction,
  TransactionsBetweenQuery,
} from './records.js';
import type {
  AddressTokenBalancesQuery,
  AddressTokenTransfersQuery,
  StoredToken,
  StoredTokenBalance,
  StoredTokenMetadata,
  TokenHoldersPage,
  TokenHoldersQuery,
  TokenSearchQuery,
  TokensQuery,
  TokenTransfersQuery,
} from './token-records.js';

/**
 * The one persistence contract of ChainLens. Each backend (memory, Postgres) implements every
 * method; `@chainlens/testing` holds the conformance suite that proves it.
 *
 * Rules for every implementation:
 * - Inputs are canonical (lowercase hex, see {@link Hex}); lookups by hash or address MUST match
 *   them exactly. Records MUST come back equal (`toEqual`) to what was written.
 * - A lookup of something absent MUST resolve `null` (or an empty array), never throw. Throwing is
 *   for real failures (connection lost, query error) only.
 * - Reads MUST only ever see whole blocks: a concurrent reader sees a block's bundle either
 *   completely or not at all.
 */
export interface Storage extends WebhookStorage {
  /**
   * Where this storage's reads may lag its own writes (it reads from replicas): a storage on the
   * same data whose reads see every write, for what must read its own writes (the indexers,
   * accounts and keys, counters, jobs). Absent where reads never lag. Closing it closes nothing.
   */
  readonly primary?: Storage;

  /** Prepares the backend (migrations, pools). Idempotent. Called by `explorer.start()`. */
  init(): Promise<void>;
  /** Releases every resource. Idempotent. */
  close(): Promise<void>;
  /** Cheap liveness probe for `/health`: resolves when the backend answers, throws otherwise. */
  ping(): Promise<void>;

  /**
   * Writes one block's bundle and moves the cursor to it, atomically: after a crash either all
   * of it and the new cursor are stored, or none. The block MUST be the cursor's child
   * (`number = cursor.number + 1`, `parentHash = cursor.hash`) unless there is no cursor yet;
   * otherwise it MUST throw without writing anything.
   */
  writeBlock(bundle: BlockBundle): Promise<void>;
  /**
   * {@link writeBlock} of consecutive bundles as one write: the first MUST be the cursor's child
   * and each the child of the one before it, and after a crash either all of them and the cursor
   * at the last are stored, or none. Otherwise it MUST throw without writing anything. Lets a
   * catch-up far behind the head write several blocks per transaction. An empty list is a no-op.
   */
  writeBlocks(bundles: BlockBundle[]): Promise<void>;
  /**
   * Removes every block above `blockNumber` with all it brought (transactions, logs, token
   * transfers, approvals, pair events, contract creations, internal transactions, address
   * entries, totals, chart rollups, traces) and moves the cursor to `blockNumber` (and the trace cursor, when above it),
   * atomically. A `blockNumber` below the first stored block clears everything and both cursors.
   * Rolling back to or above the cursor is a no-op.
   */
  rollbackTo(blockNumber: bigint): Promise<void>;
  /** The last block written, or `null` before the first write. */
  getCursor(): Promise<IndexerCursor | null>;

  /**
   * The block through which every written block's traces are stored. Writing the first block
   * sets it to that block's number less one (nothing traced yet); {@link writeBlockTraces} moves
   * it up; {@link rollbackTo} takes it back to the rollback point when it was above it, and
   * clears it with the last block. `null` while no block is stored.
   */
  getTraceCursor(): Promise<bigint | null>;
  /**
   * Stores the traces of written blocks (the contracts created inside their transactions and
   * their internal transactions) and moves the trace cursor to the last of them, atomically. The
   * entries MUST be consecutive blocks from the one after the trace cursor, each stored with the
   * entry's `blockHash`; each creation and internal transaction MUST name a transaction of its
   * block by hash and index and carry its block's number (and timestamp), both kinds ascend in
   * (`transactionIndex`, `traceIndex`), and a creation's `traceIndex` is at least 1 (0 is the
   * transaction's own, written with the block). Otherwise it MUST throw, writing nothing. Reads
   * then answer the traced rows as if the block had been written with them. An empty list is a
   * no-op. A block written with its traces (a writer that traces inline) MUST NOT be traced again.
   */
  writeBlockTraces(traces: BlockTraces[]): Promise<void>;

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

  getTransaction(hash: Hex): Promise<StoredTransaction | null>;
  /** One round trip for many hashes; the result is in input order with `null` for unknown ones. */
  getTransactions(hashes: Hex[]): Promise<(StoredTransaction | null)[]>;
  /** A transaction's logs in `logIndex` order (empty when unknown). */
  getTransactionLogs(hash: Hex): Promise<StoredLog[]>;

  /**
   * Transactions sent from, sent to, or creating `address`, ordered by (blockNumber,
   * transactionIndex) as `sort` says, filtered by the inclusive block range, then paged:
   * page `p` of size `o` is items `(p-1)*o … p*o-1`. A transaction sent by an address to itself
   * appears once.
   */
  listAddressTransactions(query: AddressTransactionsQuery): Promise<StoredTransaction[]>;
  /**
   * The hashes of {@link listAddressTransactions}' answer to `query`, in its order: a page whose
   * records are kept elsewhere (they change only with a reorg) is then read without them.
   */
  listAddressTransactionHashes(query: AddressTransactionsQuery): Promise<Hex[]>;
  /**
   * Transactions in which both `address` and `counterparty` take part (as sender, recipient or
   * created contract), ordered and paged as {@link listAddressTransactions}.
   */
  listTransactionsBetween(query: TransactionsBetweenQuery): Promise<StoredTransaction[]>;
  /**
   * Logs emitted by `address`, filtered by inclusive block range and first topic, ordered by
   * (blockNumber, logIndex) as `sort` says, then paged as {@link listAddressTransactions}.
   */
  listAddressLogs(query: AddressLogsQuery): Promise<StoredLog[]>;
  /**
   * Logs matching `query` (its contract if given, its topics as `logMatchesTopics` reads them,
   * the inclusive block range), ascending by (blockNumber, logIndex), then paged as
   * {@link listAddressTransactions}. A query naming neither a contract nor a topic MUST resolve
   * empty. A search by topics alone MUST be read through an index on the topic positions (never
   * by reading every log), and a rollback MUST take the logs of removed blocks out of it.
   */
  listLogs(query: LogsQuery): Promise<StoredLog[]>;
  /** Transaction count and first/last activity (block timestamps) of an address. */
  getAddressActivity(address: Hex): Promise<AddressActivity>;

  /**
   * How many token transfers have `address` as sender or recipient; a transfer to oneself counts
   * once.
   */
  countAddressTokenTransfers(address: Hex): Promise<number>;

  /*
   * Tokens, holders and their transfers: kept from the token transfers of written blocks, so
   * `rollbackTo` takes them back to exactly what writing the remaining blocks gives.
   */

  /** A token with at least one stored transfer, else `null`. */
  getToken(address: Hex): Promise<StoredToken | null>;
  /** Up to `limit` tokens whose metadata has not been set, earliest first. */
  listTokensWithoutMetadata(limit: number): Promise<Hex[]>;
  /**
   * Records what a token's contract says about itself. Ignored for an unknown token; a token
   * rolled away and seen again starts without metadata.
   */
  setTokenMetadata(address: Hex, metadata: StoredTokenMetadata): Promise<void>;
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
   * Token transfers with `address` as sender or recipient (a transfer to oneself once), of every
   * token or only `token`, of every standard or only `standard`, within the inclusive block
   * range, ordered by (blockNumber, logIndex, batchIndex) as `sort` says, then paged.
   */
  listAddressTokenTransfers(query: AddressTokenTransfersQuery): Promise<StoredTokenTransfer[]>;

  /*
   * Uniswap-V2-style pairs and their price history: kept from the pair events of written blocks,
   * taken back exactly by `rollbackTo`. Time windows are block timestamps, `from` exclusive and
   * `to` inclusive; block timestamps never decrease along the chain.
   */

  /** Pairs with `token` as token0 or token1, from any factory, in creation order (block, logIndex). */
  listTokenPairs(token: Hex): Promise<StoredPair[]>;
  /** The pair's last sync (by block, then logIndex) in a block at or before `timestamp`, else `null`. */
  getPairSyncAt(pair: Hex, timestamp: bigint): Promise<StoredPairSync | null>;
  /** The pair's syncs of highest and lowest `reserve1 / reserve0` within (`from`, `to`]; `null` when none has both reserves positive. */
  getPairSyncExtremes(pair: Hex, from: bigint, to: bigint): Promise<PairSyncExtremes | null>;
  /** Each amount of the pair's swaps within (`from`, `to`], summed (zeros when none). */
  sumPairSwaps(pair: Hex, from: bigint, to: bigint): Promise<PairSwapAmounts>;

  /**
   * The latest creation of a contract at `address` among written blocks (a CREATE2 address can
   * be created again after a self-destruct), else `null`.
   */
  getContractCreation(address: Hex): Promise<StoredContractCreation | null>;

  /**
   * Internal transactions of written blocks, of one address (as sender or recipient, once when
   * both) or of every address, within the inclusive block range, ordered by (blockNumber,
   * transactionIndex, traceIndex) as `sort` says, then paged as {@link listAddressTransactions}.
   */
  listInternalTransactions(query: InternalTransactionsQuery): Promise<StoredInternalTransaction[]>;

  /** Totals over all stored blocks; rollbacks take back what they remove. */
  getChainTotals(): Promise<ChainTotals>;

  /*
   * Chart rollups: kept by every block write (a block adds to the rollup of its UTC hour and of
   * its day) and taken back exactly by `rollbackTo`, so each equals what the stored blocks of its
   * bucket add up to. Reads MUST NOT scan blocks: they answer stored rollups.
   */

  /** The rollups of buckets starting within the query's range, ascending by bucket (only buckets holding a stored block). */
  listChartRollups(query: ChartRollupsQuery): Promise<StoredChartRollup[]>;
  /**
   * One token's rollups of buckets starting within the range (only those in which it moved),
   * ascending, with its last rollup of a bucket before the range (`null` when none).
   */
  listTokenRollups(query: TokenRollupsQuery): Promise<TokenRollupsPage>;
  /**
   * The pair's last sync (by block, then logIndex) in a block at or before each of `timestamps`,
   * in input order, `null` where none: {@link getPairSyncAt} of many times in one round trip.
   */
  getPairSyncsAt(pair: Hex, timestamps: bigint[]): Promise<(StoredPairSync | null)[]>;

  /**
   * An owner's standing approvals: per (token, spender, kind), the latest stored approval (by
   * block, then logIndex) when its value is not zero, ordered newest first (block, then
   * logIndex, descending), then paged as {@link listAddressTransactions}. Rollbacks take
   * approvals back with their blocks, so an earlier one stands again.
   */
  listApprovals(query: ApprovalsQuery): Promise<StoredApproval[]>;

  /*
   * Keyset pages for exports: an address's records in ascending chain order within the inclusive
   * block range, strictly after `after`, at most `limit` of them. Each page MUST be read through
   * an index from `after` on, never by skipping earlier rows.
   */

  /** {@link listAddressTransactions}' records, ascending by (blockNumber, transactionIndex). */
  listAddressTransactionsAfter(query: KeysetQuery<TransactionPosition>): Promise<StoredTransaction[]>;
  /** {@link listInternalTransactions}' records of the address, ascending by (blockNumber, transactionIndex, traceIndex). */
  listAddressInternalTransactionsAfter(query: KeysetQuery<TracePosition>): Promise<StoredInternalTransaction[]>;
  /** {@link listAddressTokenTransfers}' records (every token and standard), ascending by (blockNumber, logIndex, batchIndex). */
  listAddressTokenTransfersAfter(query: KeysetQuery<TransferPosition>): Promise<StoredTokenTransfer[]>;
  /** {@link listAddressLogs}' records (every topic), ascending by (blockNumber, logIndex). */
  listAddressLogsAfter(query: KeysetQuery<LogPosition>): Promise<StoredLog[]>;

  /*
   * Users and API keys. They are not chain data: `rollbackTo` MUST leave them alone. Records
   * come back equal (`toEqual`) to what was written; array fields are stored in the order given.
   */

  /**
   * Stores a new user. Resolves `false`, writing nothing, when a user with the same `email`
   * exists; two concurrent calls with one email MUST NOT both succeed.
   */
  createUser(user: StoredUser): Promise<boolean>;
  getUserById(id: string): Promise<StoredUser | null>;
  /** Exact match on the canonical email; any text (NUL, lone surrogates) is a miss, never an error. */
  getUserByEmail(email: string): Promise<StoredUser | null>;
  /** Applies `changes`; resolves the updated user, or `null` (nothing written) for an unknown id. */
  updateUser(id: string, changes: UserChanges): Promise<StoredUser | null>;

  /**
   * Stores a new API key (the caller guarantees a fresh id and hash; a duplicate MUST throw) and
   * resolves `true`. With `cap`, only while the key's owner holds fewer than `cap.maxLive` live
   * keys: otherwise it resolves `false`, writing nothing. Concurrent calls for one owner MUST NOT
   * together pass the cap (each counts the keys the others stored).
   */
  createApiKey(key: StoredApiKey, cap?: ApiKeyCap): Promise<boolean>;
  /** The key whose `keyHash` is exactly `keyHash`, revoked and expired ones included. */
  getApiKeyByHash(keyHash: string): Promise<StoredApiKey | null>;
  /** {@link getApiKeyByHash} and its owner in one round trip: what every keyed request needs. */
  getApiKeyWithOwner(keyHash: string): Promise<ApiKeyWithOwner | null>;
  /** Every key of `userId`, revoked ones included, newest first (`createdAt`, then `id`, descending). */
  listApiKeys(userId: string): Promise<StoredApiKey[]>;
  /**
   * Applies `changes` to key `id`; with `ownerId`, only when the key belongs to that user.
   * Resolves the updated key, or `null` (nothing written) when no key matches.
   */
  updateApiKey(id: string, changes: ApiKeyChanges, ownerId?: string): Promise<StoredApiKey | null>;

  /**
   * Metadata profiles: operator data, not chain data (`rollbackTo` MUST leave them alone).
   * `putMetadataProfile` replaces the address's whole profile; records come back equal.
   */
  putMetadataProfile(profile: StoredMetadataProfile): Promise<void>;
  getMetadataProfile(address: Hex): Promise<StoredMetadataProfile | null>;
  /** One round trip for many addresses: the profiles that exist, in no particular order. */
  getMetadataProfiles(addresses: Hex[]): Promise<StoredMetadataProfile[]>;
  /** Addresses whose profile is marked verified, in no particular order. */
  listVerifiedAddresses(): Promise<Hex[]>;

  /**
   * Public address labels: operator data, not chain data (`rollbackTo` MUST leave them alone).
   * `putAddressLabel` replaces the address's label; records come back equal. Every put and
   * every delete that removed a label raises the labels version, atomically with the change: a
   * reader that sees the new version sees the change.
   */
  putAddressLabel(label: StoredAddressLabel): Promise<void>;
  /** Removes the address's label; resolves whether there was one. */
  deleteAddressLabel(address: Hex): Promise<boolean>;
  /** One round trip for many addresses: the labels that exist, in no particular order. */
  getAddressLabels(addresses: Hex[]): Promise<StoredAddressLabel[]>;
  /**
   * Labels whose text starts with `prefix`, ignoring case (both lowercased with
   * `String.prototype.toLowerCase`), ordered by the lowercased text (by Unicode code point),
   * then address; at most `limit`. Any text is a plain prefix: `%` and `_` match themselves.
   */
  searchAddressLabels(prefix: string, limit: number): Promise<StoredAddressLabel[]>;
  /** A number that grows with every label change (0 before the first): caches keyed by it never serve a label that changed. */
  getLabelsVersion(): Promise<number>;

  /**
   * Private labels: each user's own watch list. Not chain data (`rollbackTo` MUST leave them
   * alone). `putPrivateLabel` stores the entry or replaces the user's entry for the address
   * (keeping its `createdAt`) and resolves `true`; with `cap`, a new entry is stored only while
   * the user holds fewer than `cap.maxEntries` (else `false`, nothing written). Concurrent puts
   * of one user MUST NOT together pass the cap.
   */
  putPrivateLabel(label: StoredPrivateLabel, cap?: PrivateLabelCap): Promise<boolean>;
  /** Removes the user's entry for the address; resolves whether there was one. */
  deletePrivateLabel(userId: string, address: Hex): Promise<boolean>;
  /** The user's entries, newest first (`createdAt` descending, then address ascending). */
  listPrivateLabels(userId: string): Promise<StoredPrivateLabel[]>;

  /**
   * Verified contracts: not chain data (`rollbackTo` MUST leave them alone).
   * `putVerifiedContract` replaces the address's whole record; records come back equal.
   */
  putVerifiedContract(contract: StoredVerifiedContract): Promise<void>;
  getVerifiedContract(address: Hex): Promise<StoredVerifiedContract | null>;
  /** One round trip for many addresses: the records that exist, in no particular order. */
  getVerifiedContracts(addresses: Hex[]): Promise<StoredVerifiedContract[]>;

  /**
   * Verification jobs, polled by guid from any instance. `putVerificationJob` inserts the job or
   * replaces the one with its guid; `getVerificationJob` is `null` for an unknown guid.
   */
  putVerificationJob(job: StoredVerificationJob): Promise<void>;
  getVerificationJob(guid: string): Promise<StoredVerificationJob | null>;

  /**
   * Adds each hit's `amount` to its counter and resolves the counters' values after it, in input
   * order: rate limits and throttles, shared by every instance on one storage. A counter whose
   * `expiresAt` is at or before `now` (Unix ms) counts as absent (0). Each counter's update is
   * atomic: concurrent hits on one key all count. Keys are distinct within one call. A backend
   * may drop live counters to bound its memory (memory storage does, least recently used first),
   * never to grow them.
   */
  hitCounters(hits: CounterHit[], now: number): Promise<number[]>;
}
