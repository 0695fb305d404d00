import {
  approvalProblem,
  blockTracesProblem,
  bucketOf,
  ConfigError,
  contractCreationProblem,
  internalTransactionProblem,
  pairEventProblem,
  type AddressActivity,
  type AddressLogsQuery,
  type AddressTokenTransfersQuery,
  type AddressTransactionsQuery,
  type MinerBlocksQuery,
  type ApiKeyCap,
  type ApiKeyChanges,
  type ApiKeyWithOwner,
  type ApprovalsQuery,
  type ChartRollupsQuery,
  type KeysetQuery,
  type LogPosition,
  type PrivateLabelCap,
  type StoredAddressLabel,
  type StoredApproval,
  type StoredChartRollup,
  type StoredPrivateLabel,
  type TokenRollupsPage,
  type TokenRollupsQuery,
  type TracePosition,
  type TransactionPosition,
  type TransferPosition,
  type BlockBundle,
  type BlockTraces,
  type ChainTotals,
  type CounterHit,
  type Hex,
  type IndexerCursor,
  type InternalTransactionsQuery,
  type Storage,
  type StoredApiKey,
  type StoredBlock,
  type StoredContractCreation,
  type StoredInternalTransaction,
  type StoredLog,
  type StoredMetadataProfile,
  type StoredToken,
  type StoredTokenMetadata,
  type StoredTokenTransfer,
  type StoredTransaction,
  type StoredUser,
  type StoredVerificationJob,
  type StoredVerifiedContract,
  type PairSwapAmounts,
  type PairSyncExtremes,
  type StoredPair,
  type StoredPairSwap,
  type StoredPairSync,
  type TokenHoldersPage,
  type AddressTokenBalancesQuery,
  type StoredTokenBalance,
  type TokenHoldersQuery,
  type TokenSearchQuery,
  type TokensQuery,
  type TokenTransfersQuery,
  type TransactionsBetweenQuery,
  type UserChanges,
  type LogsQuery,
  type StoredWebhook,
  type StoredWebhookDelivery,
  type WebhookAttemptOutcome,
  type WebhookChanges,
  type WebhookClaim,
  type WebhookDeliveriesQuery,
} from '@chainlens/core';
import { AccountStore } from './account-store.js';
import { AddressIndex, involved } from './address-index.js';
import { ApprovalIndex } from './approval-index.js';
import { type BlockRollup, ChartIndex } from './chart-index.js';
import { LabelStore } from './label-store.js';
import { inTraceOrder, insertInOrder } from './block-order.js';
import { CounterStore } from './counter-store.js';
import { DexIndex } from './dex-index.js';
import { InternalTransactionIndex } from './internal-transaction-index.js';
import { LogIndex } from './log-index.js';
import { MetadataStore } from './metadata-store.js';
import { VerificationStore } from './verification-store.js';
import { WebhookStore } from './webhook-store.js';
import { TokenIndex } from './token-index.js';

/** Options of {@link memoryStorage}. */
export interface MemoryStorageOptions {
  /**
   * Bundles written at creation, in order, with the same checks as `writeBlock` (a bad one
   * throws from `memoryStorage()`). Handy to preload demos and benchmarks without awaiting.
   */
  initialBlocks?: Iterable<BlockBundle>;
  /**
   * Most counters of `hitCounters` kept at once (default 100 000), a positive integer. Past it
   * the least recently hit are dropped, so a flood of distinct keys cannot exhaust memory; a
   * dropped rate-limit counter starts again from 0.
   */
  maxCounters?: number;
}

const DEFAULT_MAX_COUNTERS = 100_000;

/**
 * A stored block with its frozen transactions in index order, and token and pair events in log
 * order. Its creations and internal transactions grow once, when its traces are written.
 */
interface BlockEntry {
  readonly block: StoredBlock;
  readonly transactions: readonly StoredTransaction[];
  readonly tokenTransfers: readonly StoredTokenTransfer[];
  readonly pairs: readonly StoredPair[];
  readonly pairSyncs: readonly StoredPairSync[];
  readonly pairSwaps: readonly StoredPairSwap[];
  readonly approvals: readonly StoredApproval[];
  /** What the block added to the chart rollups, known once it is committed. */
  rollup: BlockRollup | null;
  contracts: readonly StoredContractCreation[];
  internalTransactions: readonly StoredInternalTransaction[];
}

/** A stored transaction with its frozen logs in logIndex order. */
interface TransactionEntry {
  readonly tx: StoredTransaction;
  readonly logs: readonly StoredLog[];
}

/** A validated, frozen bundle, ready to commit. */
interface PreparedBundle {
  readonly block: BlockEntry;
  readonly transactions: readonly TransactionEntry[];
}

/**
 * The Storage contract on in-process structures. Every method runs synchronously to completion,
 * so a reader never sees part of a block. Chain records are frozen copies taken on write; reads
 * return those frozen records (cheap, and no caller can change what is stored). Users and API
 * keys change after they are written, so {@link AccountStore} copies them both ways instead.
 */
export class MemoryStorage implements Storage {
  /** Blocks by `number - firstNumber`: writes append the cursor's child, rollbacks pop. */
  readonly #blocks: BlockEntry[] = [];
  readonly #blocksByHash = new Map<Hex, BlockEntry>();
  /** Each miner's blocks, oldest first. */
  readonly #blocksByMiner = new Map<Hex, StoredBlock[]>();
  readonly #transactions = new Map<Hex, TransactionEntry>();
  readonly #addresses = new AddressIndex();
  readonly #tokens = new TokenIndex();
  readonly #dex = new DexIndex();
  readonly #logs = new LogIndex();
  readonly #internalTransactions = new InternalTransactionIndex();
  readonly #approvals = new ApprovalIndex();
  readonly #charts = new ChartIndex();
  /** Creations by address, oldest first: a re-created address stacks, rollbacks pop. */
  readonly #contracts = new Map<Hex, StoredContractCreation[]>();
  #totalTransactions = 0;
  #totalContracts = 0;
  /** See `Storage.getTraceCursor`. */
  #traceCursor: bigint | null = null;
  /** Users and API keys: not chain data, so rollbacks never touch them. */
  readonly #accounts = new AccountStore();
  /** Metadata profiles: operator data, untouched by rollbacks. */
  readonly #metadata = new MetadataStore();
  /** Address labels, public and private: operator and user data, untouched by rollbacks. */
  readonly #labels = new LabelStore();
  /** Verified contracts and verification jobs: not chain data either. */
  readonly #verification = new VerificationStore();
  /** Rate-limit and throttle counters: not chain data either. */
  readonly #counters: CounterStore;
  /** Webhooks and their outbox, which the block writes and rollbacks change with their blocks. */
  readonly #webhooks = new WebhookStore();

  constructor(options: MemoryStorageOptions = {}) {
    const { maxCounters = DEFAULT_MAX_COUNTERS } = options;
    if (!Number.isSafeInteger(maxCounters) || maxCounters < 1) {
      throw new ConfigError('memoryStorage.maxCounters', 'must be a positive integer');
    }
    this.#counters = new CounterStore(maxCounters);
    for (const bundle of options.initialBlocks ?? []) this.#commit(this.#prepare(bundle));
  }

  async init(): Promise<void> {}

  /** Releases nothing: the data lives as long as this object. */
  async close(): Promise<void> {}

  async ping(): Promise<void> {}

  async writeBlock(bundle: BlockBundle): Promise<void> {
    this.#commit(this.#prepare(bundle));
    this.#webhooks.enqueue(bundle, Date.now());
  }

  async writeBlocks(bundles: BlockBundle[]): Promise<void> {
    // Each bundle is checked against the one before it (as #prepare checks the cursor): all pass or nothing is written.
    const prepared: PreparedBundle[] = [];
    const hashes = new Set<Hex>();
    for (const bundle of bundles) {
      const entry = this.#prepare(bundle, prepared.at(-1)?.block.block);
      for (const { tx } of entry.transactions) {
        if (hashes.has(tx.hash)) throw new Error(`writeBlock: transaction ${tx.hash} is already stored`);
        hashes.add(tx.hash);
      }
      prepared.push(entry);
    }
    for (const entry of prepared) this.#commit(entry);
    for (const bundle of bundles) this.#webhooks.enqueue(bundle, Date.now());
  }

  async rollbackTo(blockNumber: bigint): Promise<void> {
    const top = this.#blocks.at(-1)?.block.number;
    if (top === undefined || blockNumber >= top) return;
    this.#removeAbove(blockNumber);
    this.#webhooks.rollback(blockNumber, Date.now());
    this.#traceCursor = this.#blocks.length === 0 ? null : this.#traceCursor! < blockNumber ? this.#traceCursor : blockNumber;
  }

  async getTraceCursor(): Promise<bigint | null> {
    return this.#traceCursor;
  }

  async writeBlockTraces(traces: BlockTraces[]): Promise<void> {
    const prepared = traces.map((entry, i) => {
      const expected = this.#traceCursor === null ? null : this.#traceCursor + 1n + BigInt(i);
      const stored = expected === null ? undefined : this.#blockAt(expected);
      if (!stored || entry.blockNumber !== expected) {
        throw new Error(`writeBlockTraces: block ${entry.blockNumber} is not the next written block to trace (the trace cursor is ${this.#traceCursor}, the cursor ${this.#blocks.at(-1)?.block.number ?? null})`);
      }
      const problem = blockTracesProblem(entry, stored);
      if (problem) throw new Error(`writeBlockTraces: ${problem}`);
      return {
        stored,
        contracts: entry.contracts.map((creation) => Object.freeze({ ...creation })),
        internalTransactions: entry.internalTransactions.map((internal) => Object.freeze({ ...internal })),
      };
    });
    for (const { stored, contracts, internalTransactions } of prepared) {
      for (const internal of internalTransactions) this.#internalTransactions.add(internal);
      for (const creation of contracts) this.#addCreation(creation);
      stored.contracts = Object.freeze([...stored.contracts, ...contracts].sort(inTraceOrder));
      stored.internalTransactions = Object.freeze([...stored.internalTransactions, ...internalTransactions].sort(inTraceOrder));
      this.#traceCursor = stored.block.number;
    }
    this.#webhooks.enqueueTraces(traces, Date.now());
  }

  /** Takes every block above `blockNumber` back, newest first. */
  #removeAbove(blockNumber: bigint): void {
    for (let top = this.#blocks.at(-1); top && top.block.number > blockNumber; top = this.#blocks.at(-1)) {
      this.#blocks.pop();
      this.#blocksByHash.delete(top.block.hash);
      const mined = this.#blocksByMiner.get(top.block.miner)!;
      mined.pop();
      if (mined.length === 0) this.#blocksByMiner.delete(top.block.miner);
      for (let i = top.internalTransactions.length - 1; i >= 0; i--) this.#internalTransactions.removeLast(top.internalTransactions[i]!);
      for (let i = top.approvals.length - 1; i >= 0; i--) this.#approvals.removeLast(top.approvals[i]!);
      for (let i = top.tokenTransfers.length - 1; i >= 0; i--) this.#tokens.removeLast(top.tokenTransfers[i]!);
      for (const [token, transfers] of transfersPerToken(top.tokenTransfers)) this.#charts.removeLastToken(token, transfers, this.#tokens.holderCount(token));
      this.#charts.removeLast(top.rollup!);
      for (let i = top.pairSwaps.length - 1; i >= 0; i--) this.#dex.removeLastSwap(top.pairSwaps[i]!);
      for (let i = top.pairSyncs.length - 1; i >= 0; i--) this.#dex.removeLastSync(top.pairSyncs[i]!);
      for (let i = top.pairs.length - 1; i >= 0; i--) this.#dex.removeLastPair(top.pairs[i]!);
      for (let i = top.contracts.length - 1; i >= 0; i--) {
        const creations = this.#contracts.get(top.contracts[i]!.address)!;
        creations.pop();
        if (creations.length === 0) this.#contracts.delete(top.contracts[i]!.address);
      }
      for (let i = top.transactions.length - 1; i >= 0; i--) {
        const tx = top.transactions[i]!;
        const logs = this.#transactions.get(tx.hash)!.logs;
        for (let j = logs.length - 1; j >= 0; j--) this.#logs.removeLast(logs[j]!);
        this.#transactions.delete(tx.hash);
        this.#addresses.removeLast(tx);
        this.#totalTransactions -= 1;
        if (tx.contractAddress !== null) this.#totalContracts -= 1;
      }
    }
  }

  async getCursor(): Promise<IndexerCursor | null> {
    const top = this.#blocks.at(-1)?.block;
    return top ? { number: top.number, hash: top.hash } : null;
  }

  async getBlockByNumber(number: bigint): Promise<StoredBlock | null> {
    return this.#blockAt(number)?.block ?? null;
  }

  async getBlockByHash(hash: Hex): Promise<StoredBlock | null> {
    return this.#blocksByHash.get(hash)?.block ?? null;
  }

  async getBlockTransactionHashes(number: bigint): Promise<Hex[]> {
    return this.#blockAt(number)?.transactions.map((tx) => tx.hash) ?? [];
  }

  async getBlockWithTransactionHashes(number: bigint): Promise<{ block: StoredBlock; transactionHashes: Hex[] } | null> {
    const entry = this.#blockAt(number);
    return entry ? { block: entry.block, transactionHashes: entry.transactions.map((tx) => tx.hash) } : null;
  }

  async getBlocksWithTransactionHashes(numbers: bigint[]): Promise<({ block: StoredBlock; transactionHashes: Hex[] } | null)[]> {
    return Promise.all(numbers.map((number) => this.getBlockWithTransactionHashes(number)));
  }

  async getBlockBundle(number: bigint): Promise<BlockBundle | null> {
    const entry = this.#blockAt(number);
    if (!entry) return null;
    const logs = entry.transactions.flatMap((tx) => this.#transactions.get(tx.hash)!.logs);
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
    const mined = this.#blocksByMiner.get(query.miner) ?? [];
    const end = mined.length - (query.page - 1) * query.offset;
    const result: StoredBlock[] = [];
    for (let i = end - 1; i >= 0 && i >= end - query.offset; i--) result.push(mined[i]!);
    return result;
  }

  async listRecentBlocks(limit: number): Promise<StoredBlock[]> {
    const count = Math.max(0, Math.min(limit, this.#blocks.length));
    const result = new Array<StoredBlock>(count);
    for (let i = 0; i < count; i++) result[i] = this.#blocks[this.#blocks.length - 1 - i]!.block;
    return result;
  }

  async getTransaction(hash: Hex): Promise<StoredTransaction | null> {
    return this.#transactions.get(hash)?.tx ?? null;
  }

  async getTransactions(hashes: Hex[]): Promise<(StoredTransaction | null)[]> {
    return hashes.map((hash) => this.#transactions.get(hash)?.tx ?? null);
  }

  async getTransactionLogs(hash: Hex): Promise<StoredLog[]> {
    return [...(this.#transactions.get(hash)?.logs ?? [])];
  }

  async listAddressTransactions(query: AddressTransactionsQuery): Promise<StoredTransaction[]> {
    return this.#addresses.list(query);
  }

  async listAddressTransactionHashes(query: AddressTransactionsQuery): Promise<Hex[]> {
    return this.#addresses.list(query).map((tx) => tx.hash);
  }

  async listTransactionsBetween(query: TransactionsBetweenQuery): Promise<StoredTransaction[]> {
    return this.#addresses.between(query);
  }

  async listAddressLogs(query: AddressLogsQuery): Promise<StoredLog[]> {
    return this.#logs.list(query);
  }

  async listLogs(query: LogsQuery): Promise<StoredLog[]> {
    return this.#logs.listLogs(query);
  }

  async getAddressActivity(address: Hex): Promise<AddressActivity> {
    const span = this.#addresses.span(address);
    if (!span) return { transactionCount: 0, firstSeen: null, lastSeen: null };
    return {
      transactionCount: span.count,
      firstSeen: this.#blockAt(span.first.blockNumber)!.block.timestamp,
      lastSeen: this.#blockAt(span.last.blockNumber)!.block.timestamp,
    };
  }

  async countAddressTokenTransfers(address: Hex): Promise<number> {
    return this.#tokens.countAddressTransfers(address);
  }

  async getToken(address: Hex): Promise<StoredToken | null> {
    return this.#tokens.getToken(address);
  }

  async listTokensWithoutMetadata(limit: number): Promise<Hex[]> {
    return this.#tokens.withoutMetadata(limit);
  }

  async setTokenMetadata(address: Hex, metadata: StoredTokenMetadata): Promise<void> {
    this.#tokens.setMetadata(address, metadata);
  }

  async listTokens(query: TokensQuery): Promise<StoredToken[]> {
    return this.#tokens.listTokens(query);
  }

  async searchTokens(query: TokenSearchQuery): Promise<StoredToken[]> {
    return this.#tokens.searchTokens(query);
  }

  async countTokenHoldersAt(token: Hex, blockNumber: bigint): Promise<number> {
    return this.#tokens.countHoldersAt(token, blockNumber);
  }

  async listTokenHolders(query: TokenHoldersQuery): Promise<TokenHoldersPage> {
    return this.#tokens.listHolders(query);
  }

  async listAddressTokenBalances(query: AddressTokenBalancesQuery): Promise<StoredTokenBalance[]> {
    return this.#tokens.listBalances(query);
  }

  async listTokenTransfers(query: TokenTransfersQuery): Promise<StoredTokenTransfer[]> {
    return this.#tokens.listTransfers(query);
  }

  async listAddressTokenTransfers(query: AddressTokenTransfersQuery): Promise<StoredTokenTransfer[]> {
    return this.#tokens.listAddressTransfers(query);
  }

  async listTokenPairs(token: Hex): Promise<StoredPair[]> {
    return this.#dex.pairsOf(token);
  }

  async getPairSyncAt(pair: Hex, timestamp: bigint): Promise<StoredPairSync | null> {
    return this.#dex.syncAt(pair, timestamp);
  }

  async getPairSyncExtremes(pair: Hex, from: bigint, to: bigint): Promise<PairSyncExtremes | null> {
    return this.#dex.syncExtremes(pair, from, to);
  }

  async sumPairSwaps(pair: Hex, from: bigint, to: bigint): Promise<PairSwapAmounts> {
    return this.#dex.sumSwaps(pair, from, to);
  }

  async getContractCreation(address: Hex): Promise<StoredContractCreation | null> {
    return this.#contracts.get(address)?.at(-1) ?? null;
  }

  async listInternalTransactions(query: InternalTransactionsQuery): Promise<StoredInternalTransaction[]> {
    return this.#internalTransactions.list(query);
  }

  async listChartRollups(query: ChartRollupsQuery): Promise<StoredChartRollup[]> {
    return this.#charts.list(query);
  }

  async listTokenRollups(query: TokenRollupsQuery): Promise<TokenRollupsPage> {
    return this.#charts.listToken(query);
  }

  async getPairSyncsAt(pair: Hex, timestamps: bigint[]): Promise<(StoredPairSync | null)[]> {
    return timestamps.map((timestamp) => this.#dex.syncAt(pair, timestamp));
  }

  async listApprovals(query: ApprovalsQuery): Promise<StoredApproval[]> {
    return this.#approvals.standing(query);
  }

  async listAddressTransactionsAfter(query: KeysetQuery<TransactionPosition>): Promise<StoredTransaction[]> {
    return this.#addresses.listAfter(query);
  }

  async listAddressInternalTransactionsAfter(query: KeysetQuery<TracePosition>): Promise<StoredInternalTransaction[]> {
    return this.#internalTransactions.listAfter(query);
  }

  async listAddressTokenTransfersAfter(query: KeysetQuery<TransferPosition>): Promise<StoredTokenTransfer[]> {
    return this.#tokens.listAddressTransfersAfter(query);
  }

  async listAddressLogsAfter(query: KeysetQuery<LogPosition>): Promise<StoredLog[]> {
    return this.#logs.listAfter(query);
  }

  async getChainTotals(): Promise<ChainTotals> {
    return {
      totalTransactions: this.#totalTransactions,
      totalAccounts: this.#addresses.size,
      totalContracts: this.#totalContracts,
    };
  }

  async createUser(user: StoredUser): Promise<boolean> {
    return this.#accounts.createUser(user);
  }

  async getUserById(id: string): Promise<StoredUser | null> {
    return this.#accounts.getUserById(id);
  }

  async getUserByEmail(email: string): Promise<StoredUser | null> {
    return this.#accounts.getUserByEmail(email);
  }

  async updateUser(id: string, changes: UserChanges): Promise<StoredUser | null> {
    return this.#accounts.updateUser(id, changes);
  }

  async createApiKey(key: StoredApiKey, cap?: ApiKeyCap): Promise<boolean> {
    return this.#accounts.createApiKey(key, cap);
  }

  async getApiKeyByHash(keyHash: string): Promise<StoredApiKey | null> {
    return this.#accounts.getApiKeyByHash(keyHash);
  }

  async getApiKeyWithOwner(keyHash: string): Promise<ApiKeyWithOwner | null> {
    const key = this.#accounts.getApiKeyByHash(keyHash);
    return key && { key, owner: this.#accounts.getUserById(key.userId) };
  }

  async listApiKeys(userId: string): Promise<StoredApiKey[]> {
    return this.#accounts.listApiKeys(userId);
  }

  async updateApiKey(id: string, changes: ApiKeyChanges, ownerId?: string): Promise<StoredApiKey | null> {
    return this.#accounts.updateApiKey(id, changes, ownerId);
  }

  async putMetadataProfile(profile: StoredMetadataProfile): Promise<void> {
    this.#metadata.put(profile);
  }

  async getMetadataProfile(address: Hex): Promise<StoredMetadataProfile | null> {
    return this.#metadata.get(address);
  }

  async getMetadataProfiles(addresses: Hex[]): Promise<StoredMetadataProfile[]> {
    return this.#metadata.getMany(addresses);
  }

  async listVerifiedAddresses(): Promise<Hex[]> {
    return this.#metadata.verifiedAddresses();
  }

  async putAddressLabel(label: StoredAddressLabel): Promise<void> {
    this.#labels.put(label);
  }

  async deleteAddressLabel(address: Hex): Promise<boolean> {
    return this.#labels.delete(address);
  }

  async getAddressLabels(addresses: Hex[]): Promise<StoredAddressLabel[]> {
    return this.#labels.getMany(addresses);
  }

  async searchAddressLabels(prefix: string, limit: number): Promise<StoredAddressLabel[]> {
    return this.#labels.search(prefix, limit);
  }

  async getLabelsVersion(): Promise<number> {
    return this.#labels.version;
  }

  async putPrivateLabel(label: StoredPrivateLabel, cap?: PrivateLabelCap): Promise<boolean> {
    return this.#labels.putPrivate(label, cap);
  }

  async deletePrivateLabel(userId: string, address: Hex): Promise<boolean> {
    return this.#labels.deletePrivate(userId, address);
  }

  async listPrivateLabels(userId: string): Promise<StoredPrivateLabel[]> {
    return this.#labels.listPrivate(userId);
  }

  async putVerifiedContract(contract: StoredVerifiedContract): Promise<void> {
    this.#verification.putContract(contract);
  }

  async getVerifiedContract(address: Hex): Promise<StoredVerifiedContract | null> {
    return this.#verification.getContract(address);
  }

  async getVerifiedContracts(addresses: Hex[]): Promise<StoredVerifiedContract[]> {
    return this.#verification.getContracts(addresses);
  }

  async putVerificationJob(job: StoredVerificationJob): Promise<void> {
    this.#verification.putJob(job);
  }

  async getVerificationJob(guid: string): Promise<StoredVerificationJob | null> {
    return this.#verification.getJob(guid);
  }

  async hitCounters(hits: CounterHit[], now: number): Promise<number[]> {
    return this.#counters.hit(hits, now);
  }

  createWebhook(webhook: StoredWebhook, maxPerUser: number): Promise<boolean> {
    return this.#webhooks.createWebhook(webhook, maxPerUser);
  }
  getWebhook(id: string, ownerId?: string): Promise<StoredWebhook | null> {
    return this.#webhooks.getWebhook(id, ownerId);
  }
  listWebhooks(userId: string): Promise<StoredWebhook[]> {
    return this.#webhooks.listWebhooks(userId);
  }
  updateWebhook(id: string, changes: WebhookChanges, ownerId?: string): Promise<StoredWebhook | null> {
    return this.#webhooks.updateWebhook(id, changes, ownerId);
  }
  deleteWebhook(id: string, ownerId: string): Promise<boolean> {
    return this.#webhooks.deleteWebhook(id, ownerId);
  }
  listWebhookDeliveries(query: WebhookDeliveriesQuery): Promise<StoredWebhookDelivery[]> {
    return this.#webhooks.listWebhookDeliveries(query);
  }
  getWebhookDelivery(webhookId: string, id: string): Promise<StoredWebhookDelivery | null> {
    return this.#webhooks.getWebhookDelivery(webhookId, id);
  }
  redeliverWebhookDelivery(webhookId: string, id: string, now: number): Promise<StoredWebhookDelivery | null> {
    return this.#webhooks.redeliverWebhookDelivery(webhookId, id, now);
  }
  claimWebhookDeliveries(claim: WebhookClaim): Promise<StoredWebhookDelivery[]> {
    return this.#webhooks.claimWebhookDeliveries(claim);
  }
  setWebhookPayload(id: string, owner: string, payload: string): Promise<boolean> {
    return this.#webhooks.setWebhookPayload(id, owner, payload);
  }
  settleWebhookDelivery(id: string, owner: string, outcome: WebhookAttemptOutcome): Promise<boolean> {
    return this.#webhooks.settleWebhookDelivery(id, owner, outcome);
  }
  pruneWebhookDeliveries(before: number, limit: number): Promise<number> {
    return this.#webhooks.pruneWebhookDeliveries(before, limit);
  }
  countPendingWebhookDeliveries(): Promise<number> {
    return this.#webhooks.countPendingWebhookDeliveries();
  }

  #blockAt(number: bigint): BlockEntry | undefined {
    const first = this.#blocks[0];
    if (!first) return undefined;
    const index = number - first.block.number;
    return index >= 0n && index < BigInt(this.#blocks.length) ? this.#blocks[Number(index)] : undefined;
  }

  /**
   * Checks the whole bundle against the cursor (or `parent`, a block checked before it in the
   * same write) and itself, and copies it; mutates nothing.
   */
  #prepare({ block, transactions, logs, tokenTransfers, pairs, pairSyncs, pairSwaps, approvals, contracts, internalTransactions }: BlockBundle, parent?: StoredBlock): PreparedBundle {
    const cursor = parent ?? this.#blocks.at(-1)?.block;
    if (cursor && (block.number !== cursor.number + 1n || block.parentHash !== cursor.hash)) {
      throw new Error(
        `writeBlock: block ${block.number} (${block.hash}, parent ${block.parentHash}) is not the child of the cursor ${cursor.number} (${cursor.hash})`,
      );
    }
    if (this.#blocksByHash.has(block.hash)) throw new Error(`writeBlock: block ${block.hash} is already stored`);

    const logsByTransaction = new Map<Hex, StoredLog[]>();
    const frozenTransactions: StoredTransaction[] = [];
    let lastIndex = -1;
    for (const tx of transactions) {
      if (tx.blockNumber !== block.number || tx.blockHash !== block.hash) {
        throw new Error(`writeBlock: transaction ${tx.hash} belongs to block ${tx.blockNumber} (${tx.blockHash})`);
      }
      if (tx.transactionIndex <= lastIndex) throw new Error(`writeBlock: transaction ${tx.hash} is out of index order`);
      if (this.#transactions.has(tx.hash) || logsByTransaction.has(tx.hash)) {
        throw new Error(`writeBlock: transaction ${tx.hash} is already stored`);
      }
      lastIndex = tx.transactionIndex;
      logsByTransaction.set(tx.hash, []);
      frozenTransactions.push(Object.freeze({ ...tx }));
    }

    const logsByIndex = new Map<number, StoredLog>();
    let lastLogIndex = -1;
    for (const log of logs) {
      const list = logsByTransaction.get(log.transactionHash);
      if (!list) throw new Error(`writeBlock: log ${log.logIndex} belongs to no transaction of block ${block.hash}`);
      if (log.blockNumber !== block.number || log.blockHash !== block.hash) {
        throw new Error(`writeBlock: log ${log.logIndex} belongs to block ${log.blockNumber} (${log.blockHash})`);
      }
      if (log.logIndex <= lastLogIndex) throw new Error(`writeBlock: log ${log.logIndex} is out of logIndex order`);
      lastLogIndex = log.logIndex;
      logsByIndex.set(log.logIndex, log);
      list.push(Object.freeze({ ...log, topics: Object.freeze([...log.topics]) as Hex[] }));
    }

    let last: StoredTokenTransfer | undefined;
    for (const transfer of tokenTransfers) {
      const log = logsByIndex.get(transfer.logIndex);
      if (!log || transfer.blockNumber !== block.number || transfer.transactionHash !== log.transactionHash || transfer.transactionIndex !== log.transactionIndex) {
        throw new Error(`writeBlock: token transfer ${transfer.logIndex}/${transfer.batchIndex} names no log of block ${block.hash}`);
      }
      if (last && (transfer.logIndex < last.logIndex || (transfer.logIndex === last.logIndex && transfer.batchIndex <= last.batchIndex))) {
        throw new Error(`writeBlock: token transfer ${transfer.logIndex}/${transfer.batchIndex} is out of order`);
      }
      last = transfer;
    }
    const bundle = { block, transactions, logs, tokenTransfers, pairs, pairSyncs, pairSwaps, approvals, contracts, internalTransactions };
    const problem = pairEventProblem(bundle, logsByIndex) ?? approvalProblem(bundle, logsByIndex) ?? contractCreationProblem(bundle) ?? internalTransactionProblem(bundle);
    if (problem) throw new Error(`writeBlock: ${problem} (block ${block.hash})`);

    return {
      block: {
        block: Object.freeze({ ...block }),
        transactions: Object.freeze(frozenTransactions),
        tokenTransfers: Object.freeze(tokenTransfers.map((transfer) => Object.freeze({ ...transfer }))),
        pairs: Object.freeze(pairs.map((pair) => Object.freeze({ ...pair }))),
        pairSyncs: Object.freeze(pairSyncs.map((sync) => Object.freeze({ ...sync }))),
        pairSwaps: Object.freeze(pairSwaps.map((swap) => Object.freeze({ ...swap }))),
        approvals: Object.freeze(approvals.map((approval) => Object.freeze({ ...approval }))),
        rollup: null,
        contracts: Object.freeze(contracts.map((creation) => Object.freeze({ ...creation }))),
        internalTransactions: Object.freeze(internalTransactions.map((internal) => Object.freeze({ ...internal }))),
      },
      transactions: frozenTransactions.map((tx) => ({ tx, logs: Object.freeze(logsByTransaction.get(tx.hash)!) })),
    };
  }

  /** Applies a prepared bundle; cannot fail. */
  #commit({ block, transactions }: PreparedBundle): void {
    // Read before the block's transactions join the address index: who was active before it.
    block.rollup = this.#rollupOf(block);
    this.#charts.add(block.rollup);
    this.#blocks.push(block);
    this.#blocksByHash.set(block.block.hash, block);
    const mined = this.#blocksByMiner.get(block.block.miner);
    if (mined) mined.push(block.block);
    else this.#blocksByMiner.set(block.block.miner, [block.block]);
    for (const transfer of block.tokenTransfers) this.#tokens.add(transfer);
    for (const pair of block.pairs) this.#dex.addPair(pair);
    for (const sync of block.pairSyncs) this.#dex.addSync(sync);
    for (const swap of block.pairSwaps) this.#dex.addSwap(swap);
    for (const approval of block.approvals) this.#approvals.add(approval);
    for (const [token, transfers] of transfersPerToken(block.tokenTransfers)) this.#charts.addToken(token, block.block.timestamp, transfers, this.#tokens.holderCount(token));
    for (const internal of block.internalTransactions) this.#internalTransactions.add(internal);
    for (const creation of block.contracts) this.#addCreation(creation);
    if (this.#blocks.length === 1) this.#traceCursor = block.block.number - 1n;
    for (const entry of transactions) {
      this.#transactions.set(entry.tx.hash, entry);
      for (const log of entry.logs) this.#logs.add(log);
      this.#addresses.add(entry.tx);
      this.#totalTransactions += 1;
      if (entry.tx.contractAddress !== null) this.#totalContracts += 1;
    }
  }

  /**
   * What a block adds to the rollups of its hour and day: its figures, and of its addresses those
   * new to the chain and those not active earlier in the hour, and in the day (each address's
   * latest transaction so far tells). Constant work per address.
   */
  #rollupOf({ block, transactions, tokenTransfers }: BlockEntry): BlockRollup {
    const hour = bucketOf(block.timestamp, 'hour');
    const day = bucketOf(block.timestamp, 'day');
    const rollup: BlockRollup = { timestamp: block.timestamp, transactions: transactions.length, gasUsed: block.gasUsed, gasPriceSum: 0n, newContracts: 0, tokenTransfers: tokenTransfers.length, newAddresses: 0, hourActive: 0, dayActive: 0 };
    const seen = new Set<Hex>();
    for (const tx of transactions) {
      rollup.gasPriceSum += tx.effectiveGasPrice;
      if (tx.contractAddress !== null) rollup.newContracts += 1;
      for (const address of involved(tx)) {
        if (seen.has(address)) continue;
        seen.add(address);
        const last = this.#addresses.span(address)?.last.timestamp;
        if (last === undefined) rollup.newAddresses += 1;
        if (last === undefined || last < hour) rollup.hourActive += 1;
        if (last === undefined || last < day) rollup.dayActive += 1;
      }
    }
    return rollup;
  }

  /** Adds a creation to its address's creations, which stay in chain order (traces arrive after later blocks). */
  #addCreation(creation: StoredContractCreation): void {
    const creations = this.#contracts.get(creation.address);
    if (creations) insertInOrder(creations, creation, inTraceOrder);
    else this.#contracts.set(creation.address, [creation]);
  }
}

/** How many of `transfers` each token has, in order of first appearance. */
function transfersPerToken(transfers: readonly StoredTokenTransfer[]): Map<Hex, number> {
  const counts = new Map<Hex, number>();
  for (const transfer of transfers) counts.set(transfer.token, (counts.get(transfer.token) ?? 0) + 1);
  return counts;
}
