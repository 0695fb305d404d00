import type {
  AddressActivity,
  AddressLogsQuery,
  AddressTransactionsQuery,
  MinerBlocksQuery,
  ApiKeyCap,
  ApiKeyChanges,
  ApiKeyWithOwner,
  ApprovalsQuery,
  StoredWebhook,
  StoredWebhookDelivery,
  WebhookAttemptOutcome,
  WebhookChanges,
  WebhookClaim,
  WebhookDeliveriesQuery,
  BlockBundle,
  ChartRollupsQuery,
  KeysetQuery,
  LogPosition,
  PrivateLabelCap,
  StoredAddressLabel,
  StoredApproval,
  StoredChartRollup,
  StoredPrivateLabel,
  StoredTokenRollup,
  TokenRollupsPage,
  TokenRollupsQuery,
  TracePosition,
  TransactionPosition,
  TransferPosition,
  BlockTraces,
  ChainTotals,
  CounterHit,
  Hex,
  ListTip,
  OrdinalRange,
  PairSwapAmounts,
  PairSyncExtremes,
  IndexerCursor,
  InternalTransactionsQuery,
  Storage,
  StoredApiKey,
  StoredBlock,
  StoredContractCreation,
  StoredInternalTransaction,
  StoredLog,
  StoredLogWithGas,
  StoredMetadataProfile,
  StoredPair,
  StoredPairSwap,
  StoredPairSync,
  StoredToken,
  StoredTokenHolder,
  StoredTokenMetadata,
  StoredTokenTransfer,
  StoredTransaction,
  StoredTransferWithTransaction,
  StoredUser,
  StoredVerificationJob,
  StoredVerifiedContract,
  TokenHoldersPage,
  TokenHoldersQuery,
  TokenSearchQuery,
  TokensQuery,
  TokenTransfersQuery,
  AddressTokenTransfersQuery,
  AddressTokenBalancesQuery,
  StoredTokenBalance,
  TransactionsBetweenQuery,
  TransferPageWithTokens,
  UserChanges,
} from '@chainlens/core';
import { givenTopicPositions, type LogsQuery } from '@chainlens/core';
import { Pool, type QueryConfig } from 'pg';
import { accountStatements } from './account-queries.js';
import { PostgresAccountStorage } from './account-storage.js';
import { lockChainStateStatement } from './chain-state.js';
import { toBytea, toDecimal, typeParsers } from './codec.js';
import { hitCountersStatement } from './counter-queries.js';
import { PostgresCounterStorage } from './counter-storage.js';
import { clientKeepAlive, setServerKeepAlive } from './keepalive.js';
import { logsStatement } from './log-topic-queries.js';
import { migrate } from './migrate.js';
import type { ResolvedPostgresStorageOptions } from './options.js';
import { contractStatements, type ContractStatements } from './contract-queries.js';
import { dexStatements, type DexStatements } from './dex-queries.js';
import { insightStatements, type InsightStatements, labelStatements } from './insight-queries.js';
import { PostgresLabelStorage } from './label-storage.js';
import { internalTransactionStatements, type InternalTransactionStatements } from './internal-transaction-queries.js';
import { metadataStatements } from './metadata-queries.js';
import { PostgresMetadataStorage } from './metadata-storage.js';
import {
  addressLogsKey,
  afterPrefix,
  type ReadStatements,
  readStatements,
  searchKey,
  setTokenMetadataStatement,
  type Statement,
  tokenTransfersKey,
  toStoredLog,
  toStoredLogWithGas,
  toStoredTokenTransfer,
  toTransferPageWithTokens,
  toTransferWithTransaction,
} from './queries.js';
import { type RollbackStatements, rollbackStatements, rollbackTo } from './rollback.js';
import type { RolePools } from './role-pools.js';
import { qualifiedTables, type Tables } from './tables.js';
import { inTransaction } from './transaction.js';
import { verificationStatements } from './verification-queries.js';
import { PostgresVerificationStorage } from './verification-storage.js';
import { prepareBundle, type WriteStatements, writeBlocks, writeBlockStatement } from './write-block.js';
import { writeBlockTraces, writeTracesStatements, type WriteTracesStatements } from './write-traces.js';
import { PostgresWebhooks } from './webhooks.js';

/** A UTF-16 surrogate without its partner. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Bounds of Postgres `bigint`: block ranges are clamped to it. */
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

function clampInt8(value: bigint): bigint {
  return value < INT8_MIN ? INT8_MIN : value > INT8_MAX ? INT8_MAX : value;
}

/**
 * The Storage contract on PostgreSQL. Every read is one statement, so it sees one snapshot and
 * never part of a block; every chain write is one transaction that starts by locking the
 * chain_state row, so writers from any number of processes run one after another. User, API
 * key and counter writes are single statements that never take that lock, so they do not wait
 * on ingest.
 */
export class PostgresStorage implements Storage {
  readonly #options: ResolvedPostgresStorageOptions;
  /** The primary: every write, and every read that must see this storage's own writes. */
  readonly #pool: Pool;
  /** The read replicas chain reads go to, in turn; none reads from the primary. */
  readonly #readPools: Pool[];
  #nextRead = 0;
  /**
   * Where chain reads go to read replicas (`readConnectionStrings`), a storage on the primary for
   * what must read its own writes: the indexer, accounts and keys, counters, jobs. It shares this
   * storage's pool (closing it closes nothing). `undefined` without replicas.
   */
  readonly primary: PostgresStorage | undefined;
  /** Whether this is the primary view of another storage, sharing its pool. */
  readonly #isView: boolean;
  readonly #read: ReadStatements;
  readonly #tables: Tables;
  readonly #write: WriteStatements;
  readonly #writeTraces: WriteTracesStatements;
  readonly #rollback: RollbackStatements;
  readonly #dex: DexStatements;
  readonly #contracts: ContractStatements;
  readonly #internalTransactions: InternalTransactionStatements;
  readonly #insights: InsightStatements;
  readonly #setTokenMetadata: Statement;
  readonly #accountStorage: PostgresAccountStorage;
  readonly #metadataStorage: PostgresMetadataStorage;
  readonly #labelStorage: PostgresLabelStorage;
  readonly #verificationStorage: PostgresVerificationStorage;
  readonly #counterStorage: PostgresCounterStorage;
  /** Webhooks and their outbox, which the block writes and rollbacks change in their own transactions. */
  readonly #webhooks: PostgresWebhooks;
  #ready: Promise<void> | undefined;
  #closed: Promise<void> | undefined;

  /** @param primaryOf - the storage whose primary this is a view of (internal: see {@link primary}). */
  constructor(options: ResolvedPostgresStorageOptions, primaryOf?: { pool: Pool }) {
    this.#options = options;
    this.#isView = primaryOf !== undefined;
    this.#pool = primaryOf?.pool ?? this.#createPool(options.connectionString);
    this.#readPools = primaryOf ? [] : options.readConnectionStrings.map((url) => this.#createPool(url));
    this.primary = this.#readPools.length > 0 ? new PostgresStorage(options, { pool: this.#pool }) : undefined;
    const tables = qualifiedTables(options.schema);
    const lockChainState = lockChainStateStatement(tables);
    this.#read = readStatements(tables);
    this.#tables = tables;
    this.#write = { lockChainState, writeBlock: writeBlockStatement(tables) };
    this.#writeTraces = writeTracesStatements(tables);
    this.#rollback = { ...rollbackStatements(tables), lockChainState };
    this.#dex = dexStatements(tables);
    this.#contracts = contractStatements(tables);
    this.#internalTransactions = internalTransactionStatements(tables);
    this.#insights = insightStatements(tables);
    this.#setTokenMetadata = setTokenMetadataStatement(tables);
    const pools: RolePools = { primary: this.#pool, reads: () => this.#reads, schema: options.schema };
    this.#accountStorage = new PostgresAccountStorage(pools, accountStatements(tables));
    this.#metadataStorage = new PostgresMetadataStorage(pools, metadataStatements(tables));
    this.#labelStorage = new PostgresLabelStorage(pools, labelStatements(tables));
    this.#verificationStorage = new PostgresVerificationStorage(pools, verificationStatements(tables));
    this.#counterStorage = new PostgresCounterStorage(pools, hitCountersStatement(tables));
    this.#webhooks = new PostgresWebhooks(this.#pool, options.schema);
  }

  #createPool(connectionString: string): Pool {
    const options = this.#options;
    const { max, idleTimeoutMillis, connectionTimeoutMillis } = options.pool;
    // Creating a pool opens no connection: the first one is made by init().
    const pool = new Pool({
      connectionString,
      max,
      idleTimeoutMillis,
      connectionTimeoutMillis,
      statement_timeout: options.statementTimeoutMs,
      fallback_application_name: 'chainlens',
      types: typeParsers,
      ...clientKeepAlive(options),
      // Runs before the connection is handed out. A failure leaves the OS defaults: no worse.
      onConnect: (client) =>
        setServerKeepAlive(client, options).catch((error: unknown) => {
          options.logger?.warn({ err: error }, 'postgresStorage: could not set the server-side TCP keepalive of a connection');
        }),
    });
    // An idle connection that breaks (server restart, network) emits 'error' on the pool; with
    // no listener that would crash the process. The pool drops the client and opens a new one
    // on demand.
    pool.on('error', (error) => {
      options.logger?.error({ err: error }, 'postgresStorage: an idle connection failed and was dropped');
    });
    return pool;
  }

  /** Where a chain read goes: the read replicas in turn, else the primary. */
  get #reads(): Pool {
    if (this.#readPools.length === 0) return this.#pool;
    this.#nextRead = (this.#nextRead + 1) % this.#readPools.length;
    return this.#readPools[this.#nextRead]!;
  }

  /** Connects and migrates the schema; concurrent and repeated calls share one run. */
  init(): Promise<void> {
    this.#ready ??= this.#migrate().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #migrate(): Promise<void> {
    const { schema, logger } = this.#options;
    const unknown = await migrate(this.#pool, schema);
    if (unknown.length > 0) {
      logger?.warn({ schema, versions: unknown }, 'postgresStorage: the schema has migrations newer than this release');
    }
  }

  /** Ends the pools, waiting for checked-out connections to be released; a primary view leaves them to its storage. */
  close(): Promise<void> {
    if (this.#isView) return Promise.resolve();
    this.#closed ??= Promise.all([this.#pool, ...this.#readPools].map((pool) => pool.end())).then(() => undefined);
    return this.#closed;
  }

  /** Resolves when the primary and every read replica answer. */
  async ping(): Promise<void> {
    await Promise.all([this.#pool, ...this.#readPools].map((pool) => pool.query(this.#read.ping)));
  }

  async writeBlock(bundle: BlockBundle): Promise<void> {
    await this.writeBlocks([bundle]);
  }

  async writeBlocks(bundles: BlockBundle[]): Promise<void> {
    if (bundles.length === 0) return;
    const prepared = bundles.map(prepareBundle);
    await inTransaction(this.#pool, async (client) => {
      if (await writeBlocks(client, this.#write, prepared)) await this.#webhooks.enqueue(client, bundles, Date.now());
    });
  }

  async rollbackTo(blockNumber: bigint): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      if (await rollbackTo(client, this.#rollback, blockNumber)) await this.#webhooks.rollback(client, blockNumber, Date.now());
    });
  }

  async getTraceCursor(): Promise<bigint | null> {
    const { rows } = await this.#reads.query<{ traced: bigint | null }>(this.#read.traceCursor);
    return rows[0]?.traced ?? null;
  }

  async writeBlockTraces(traces: BlockTraces[]): Promise<void> {
    if (traces.length === 0) return;
    await inTransaction(this.#pool, async (client) => {
      if (await writeBlockTraces(client, this.#writeTraces, traces)) await this.#webhooks.enqueueTraces(client, traces, Date.now());
    });
  }

  async getCursor(): Promise<IndexerCursor | null> {
    const { rows } = await this.#reads.query<{ number: bigint | null; hash: Hex | null }>(this.#read.cursor);
    const row = rows[0];
    return row?.number != null && row.hash != null ? { number: row.number, hash: row.hash } : null;
  }

  async getBlockByNumber(number: bigint): Promise<StoredBlock | null> {
    if (number < INT8_MIN || number > INT8_MAX) return null;
    const { rows } = await this.#reads.query<StoredBlock>({ ...this.#read.blockByNumber, values: [toDecimal(number)] });
    return rows[0] ?? null;
  }

  async getBlockByHash(hash: Hex): Promise<StoredBlock | null> {
    const { rows } = await this.#reads.query<StoredBlock>({ ...this.#read.blockByHash, values: [toBytea(hash)] });
    return rows[0] ?? null;
  }

  async getBlockTransactionHashes(number: bigint): Promise<Hex[]> {
    if (number < INT8_MIN || number > INT8_MAX) return [];
    const { rows } = await this.#reads.query<{ hash: Hex }>({
      ...this.#read.blockTransactionHashes,
      values: [toDecimal(number)],
    });
    return rows.map((row) => row.hash);
  }

  async getBlockWithTransactionHashes(number: bigint): Promise<{ block: StoredBlock; transactionHashes: Hex[] } | null> {
    if (number < INT8_MIN || number > INT8_MAX) return null;
    const { rows } = await this.#reads.query<BlockWithHashesRow>({ ...this.#read.blockWithTransactionHashes, values: [toDecimal(number)] });
    return rows[0] ? withHashes(rows[0]) : null;
  }

  async getBlocksWithTransactionHashes(numbers: bigint[]): Promise<({ block: StoredBlock; transactionHashes: Hex[] } | null)[]> {
    const valid = numbers.filter((number) => number >= INT8_MIN && number <= INT8_MAX);
    if (valid.length === 0) return numbers.map(() => null);
    const { rows } = await this.#reads.query<BlockWithHashesRow>({ ...this.#read.blocksWithTransactionHashes, values: [valid.map(toDecimal)] });
    const byNumber = new Map(rows.map((row) => [row.number, withHashes(row)]));
    return numbers.map((number) => byNumber.get(number) ?? null);
  }

  async getBlockBundle(number: bigint): Promise<BlockBundle | null> {
    if (number < INT8_MIN || number > INT8_MAX) return null;
    const values = [toDecimal(number)];
    // One snapshot for the reads, so a concurrent rollback cannot tear the bundle.
    return inTransaction(this.#reads, async (client) => {
      await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const block = (await client.query<StoredBlock>({ ...this.#read.blockByNumber, values })).rows[0];
      if (!block) return null;
      const transactions = (await client.query<StoredTransaction>({ ...this.#read.blockTransactions, values })).rows;
      const logs = (await client.query<unknown[]>({ ...this.#read.blockLogs, values, rowMode: 'array' })).rows.map(toStoredLog);
      const tokenTransfers = (await client.query<StoredTokenTransfer>({ ...this.#read.blockTokenTransfers, values })).rows;
      const pairs = (await client.query<StoredPair>({ ...this.#dex.blockPairs, values })).rows;
      const pairSyncs = (await client.query<StoredPairSync>({ ...this.#dex.blockPairSyncs, values })).rows;
      const pairSwaps = (await client.query<StoredPairSwap>({ ...this.#dex.blockPairSwaps, values })).rows;
      const contracts = (await client.query<StoredContractCreation>({ ...this.#contracts.blockContracts, values })).rows;
      const internalTransactions = (await client.query<StoredInternalTransaction>({ ...this.#internalTransactions.blockInternalTransactions, values })).rows;
      const approvals = (await client.query<StoredApproval>({ ...this.#insights.blockApprovals, values })).rows;
      return { block, transactions, logs, tokenTransfers, pairs, pairSyncs, pairSwaps, approvals, contracts, internalTransactions };
    });
  }

  async listMinerBlocks(query: MinerBlocksQuery): Promise<StoredBlock[]> {
    const { rows } = await this.#reads.query<StoredBlock>({ ...this.#read.minerBlocks, values: [toBytea(query.miner), query.offset, (query.page - 1) * query.offset] });
    return rows;
  }

  async listRecentBlocks(limit: number): Promise<StoredBlock[]> {
    if (limit <= 0) return [];
    const { rows } = await this.#reads.query<StoredBlock>({ ...this.#read.recentBlocks, values: [limit] });
    return rows;
  }

  async getTransaction(hash: Hex): Promise<StoredTransaction | null> {
    const { rows } = await this.#reads.query<StoredTransaction>({
      ...this.#read.transactionByHash,
      values: [toBytea(hash)],
    });
    return rows[0] ?? null;
  }

  async getTransactions(hashes: Hex[]): Promise<(StoredTransaction | null)[]> {
    if (hashes.length === 0) return [];
    const { rows } = await this.#reads.query<StoredTransaction>({
      ...this.#read.transactionsByHash,
      values: [hashes.map(toBytea)],
    });
    const byHash = new Map(rows.map((tx) => [tx.hash, tx]));
    return hashes.map((hash) => byHash.get(hash) ?? null);
  }

  async getTransactionLogs(hash: Hex): Promise<StoredLog[]> {
    const { rows } = await this.#reads.query<unknown[]>({ ...this.#read.transactionLogs, values: [toBytea(hash)], rowMode: 'array' });
    return rows.map(toStoredLog);
  }

  async listAddressTransactions(query: AddressTransactionsQuery): Promise<StoredTransaction[]> {
    const read = this.#read;
    return this.#listAddressTransactions<StoredTransaction>(query, query.sort === 'asc' ? read.addressTransactionsAsc : read.addressTransactionsDesc);
  }

  async listAddressTransactionHashes(query: AddressTransactionsQuery): Promise<Hex[]> {
    const read = this.#read;
    const rows = await this.#listAddressTransactions<{ hash: Hex }>(query, query.sort === 'asc' ? read.addressTransactionHashesAsc : read.addressTransactionHashesDesc);
    return rows.map((row) => row.hash);
  }

  /** Runs one of the address transaction page statements (they share their parameters). */
  async #listAddressTransactions<Row extends object>({ address, startBlock = 0n, endBlock = INT8_MAX, page, offset }: AddressTransactionsQuery, statement: Statement): Promise<Row[]> {
    const skip = (page - 1) * offset;
    // Past 2^53 rows no address has anything left, and the ordinal arithmetic stays exact.
    if (page < 1 || offset < 1 || !Number.isSafeInteger(skip + offset) || startBlock > INT8_MAX || endBlock < INT8_MIN) return [];
    const { rows } = await this.#reads.query<Row>({
      ...statement,
      values: [
        toBytea(address),
        toDecimal(startBlock < INT8_MIN ? INT8_MIN : startBlock),
        toDecimal(endBlock > INT8_MAX ? INT8_MAX : endBlock),
        offset,
        skip,
      ],
    });
    return rows;
  }

  async listTransactionsBetween({ address, counterparty, page, offset, sort }: TransactionsBetweenQuery): Promise<StoredTransaction[]> {
    if (page < 1 || offset < 1) return [];
    // One address on both sides: each of its transactions involves it with itself.
    if (address === counterparty) return this.listAddressTransactions({ address, page, offset, sort });
    const statement = sort === 'asc' ? this.#read.transactionsBetweenAsc : this.#read.transactionsBetweenDesc;
    const { rows } = await this.#reads.query<StoredTransaction>({ ...statement, values: [toBytea(address), toBytea(counterparty), offset, (page - 1) * offset] });
    return rows;
  }

  async listAddressLogs(query: AddressLogsQuery): Promise<StoredLog[]> {
    return (await this.#addressLogs(query, false)).map(toStoredLog);
  }

  /** A contract's log page, with (`gas`) or without its transactions' time and gas. */
  async #addressLogs({ address, startBlock = 0n, endBlock = INT8_MAX, topic0, page, offset, sort }: AddressLogsQuery, gas: boolean): Promise<unknown[][]> {
    if (page < 1 || offset < 1 || startBlock > INT8_MAX || endBlock < INT8_MIN) return [];
    const statement = this.#read.addressLogs[addressLogsKey(sort === 'asc' ? 'ASC' : 'DESC', topic0 !== undefined, gas)]!;
    const values: unknown[] = [toBytea(address), toDecimal(clampInt8(startBlock)), toDecimal(clampInt8(endBlock)), offset, (page - 1) * offset];
    if (topic0 !== undefined) values.push(toBytea(topic0));
    const { rows } = await this.#reads.query<unknown[]>({ ...statement, values, rowMode: 'array' });
    return rows;
  }

  async getAddressLogTip(address: Hex): Promise<ListTip | null> {
    const { rows } = await this.#reads.query<{ length: bigint; blockNumber: bigint }>({ ...this.#read.addressLogTip, values: [toBytea(address)] });
    return rows[0] ? { length: Number(rows[0].length), blockNumber: rows[0].blockNumber } : null;
  }

  async listAddressLogRange(address: Hex, range: OrdinalRange): Promise<StoredLog[]> {
    return (await this.#ordinalRange<unknown[]>(this.#read.addressLogRange, address, range, 'array')).map(toStoredLog);
  }

  async listAddressLogRangeWithGas(address: Hex, range: OrdinalRange): Promise<StoredLogWithGas[]> {
    return (await this.#ordinalRange<unknown[]>(this.#read.addressLogRangeWithGas, address, range, 'array')).map(toStoredLogWithGas);
  }

  /** The entries `range` numbers in the list of `owner` that `statement` reads (none for an empty range); as arrays where the row builder takes them so. */
  async #ordinalRange<Row extends object>(statement: Statement, owner: Hex, { first, last }: OrdinalRange, rowMode?: 'array'): Promise<Row[]> {
    if (first > last || last < 1) return [];
    const { rows } = await this.#reads.query<Row>({ ...statement, values: [toBytea(owner), Math.max(first, 1), last], ...(rowMode && { rowMode }) });
    return rows;
  }

  async listLogs(query: LogsQuery): Promise<StoredLog[]> {
    return (await this.#logs(query, false)).map(toStoredLog);
  }

  async listLogsWithGas(query: LogsQuery): Promise<StoredLogWithGas[]> {
    return (await this.#logs(query, true)).map(toStoredLogWithGas);
  }

  /** {@link listLogs}'s rows, with (`gas`) or without their transactions' time and gas. */
  async #logs(query: LogsQuery, gas: boolean): Promise<unknown[][]> {
    const { address, startBlock = 0n, endBlock = INT8_MAX, topics, page, offset } = query;
    const given = givenTopicPositions(query);
    if ((address === undefined && given.length === 0) || page < 1 || offset < 1 || startBlock > INT8_MAX || endBlock < INT8_MIN) return [];
    // A contract's logs alone are its event page in chain order: a range of its log ordinals,
    // so a deep page reads only its own rows.
    if (address !== undefined && given.length === 0) return this.#addressLogs({ address, startBlock, endBlock, page, offset, sort: 'asc' }, gas);
    const values: unknown[] = [toDecimal(clampInt8(startBlock)), toDecimal(clampInt8(endBlock)), offset, (page - 1) * offset];
    if (address !== undefined) values.push(toBytea(address));
    for (const position of given) values.push(toBytea(topics[position]!));
    const { rows } = await this.#reads.query<unknown[]>({ ...logsStatement(this.#tables, query, gas), values, rowMode: 'array' });
    return rows;
  }

  async getAddressActivity(address: Hex): Promise<AddressActivity> {
    const { rows } = await this.#reads.query<{ transaction_count: bigint; first_seen: bigint; last_seen: bigint }>({
      ...this.#read.addressActivity,
      values: [toBytea(address)],
    });
    const row = rows[0];
    if (!row) return { transactionCount: 0, firstSeen: null, lastSeen: null };
    return { transactionCount: Number(row.transaction_count), firstSeen: row.first_seen, lastSeen: row.last_seen };
  }

  async countAddressTokenTransfers(address: Hex): Promise<number> {
    const { rows } = await this.#reads.query<{ count: bigint }>({ ...this.#read.addressTokenTransferCount, values: [toBytea(address)] });
    return Number(rows[0]!.count);
  }

  async getToken(address: Hex): Promise<StoredToken | null> {
    const { rows } = await this.#reads.query<TokenRow>({ ...this.#read.token, values: [toBytea(address)] });
    return rows[0] ? toStoredToken(rows[0]) : null;
  }

  async listTokensWithoutMetadata(limit: number): Promise<Hex[]> {
    if (limit < 1) return [];
    const { rows } = await this.#reads.query<{ address: Hex }>({ ...this.#read.tokensWithoutMetadata, values: [limit] });
    return rows.map((row) => row.address);
  }

  async setTokenMetadata(address: Hex, { name, symbol, decimals, interfaces }: StoredTokenMetadata): Promise<void> {
    const keys = [name, symbol].map((text) => (text === null ? null : searchKey(text)));
    await this.#pool.query({ ...this.#setTokenMetadata, values: [toBytea(address), name, symbol, decimals, interfaces, ...keys] });
  }

  async searchTokens({ prefix, limit }: TokenSearchQuery): Promise<StoredToken[]> {
    // UTF-8 has no lone surrogate (Buffer.from would make it U+FFFD), and no name holds one.
    if (prefix === '' || limit < 1 || LONE_SURROGATE.test(prefix)) return [];
    const key = searchKey(prefix);
    const { rows } = await this.#reads.query<TokenRow>({ ...this.#read.searchTokens, values: [key, afterPrefix(key), limit] });
    return rows.map(toStoredToken);
  }

  async listTokens({ limit, offset = 0, include, exclude = [] }: TokensQuery): Promise<StoredToken[]> {
    if (limit < 1) return [];
    const excluded = exclude.map(toBytea);
    const { rows } = await this.#reads.query<TokenRow>(
      include === undefined
        ? { ...this.#read.tokens, values: [limit, offset, excluded] }
        : { ...this.#read.includedTokens, values: [limit, offset, include.map(toBytea), excluded] },
    );
    return rows.map(toStoredToken);
  }

  async countTokenHoldersAt(token: Hex, blockNumber: bigint): Promise<number> {
    if (blockNumber > INT8_MAX) return (await this.getToken(token))?.holderCount ?? 0;
    const { rows } = await this.#reads.query<{ count: bigint }>({
      ...this.#read.tokenHoldersAt,
      values: [toBytea(token), toDecimal(blockNumber < INT8_MIN ? INT8_MIN : blockNumber)],
    });
    return Number(rows[0]!.count);
  }

  async listTokenHolders({ token, minBalance, page, offset }: TokenHoldersQuery): Promise<TokenHoldersPage> {
    const floor = toDecimal(minBalance !== undefined && minBalance > 1n ? minBalance : 1n);
    const list = async () => {
      if (page < 1 || offset < 1) return [];
      const { rows } = await this.#reads.query<StoredTokenHolder>({ ...this.#read.tokenHolders, values: [toBytea(token), floor, offset, (page - 1) * offset] });
      return rows;
    };
    // Without a floor the total is the token's kept holder count: no counting of rows.
    const count = async () => {
      if (floor === '1') return (await this.getToken(token))?.holderCount ?? 0;
      const { rows } = await this.#reads.query<{ count: bigint }>({ ...this.#read.tokenHolderCount, values: [toBytea(token), floor] });
      return Number(rows[0]!.count);
    };
    const [holders, total] = await Promise.all([list(), count()]);
    return { total, holders };
  }

  async listAddressTokenBalances({ holder, page, offset }: AddressTokenBalancesQuery): Promise<StoredTokenBalance[]> {
    if (page < 1 || offset < 1) return [];
    const { rows } = await this.#reads.query<StoredTokenBalance>({ ...this.#read.addressTokenBalances, values: [toBytea(holder), offset, (page - 1) * offset] });
    return rows;
  }

  async listTokenTransfers(query: TokenTransfersQuery): Promise<StoredTokenTransfer[]> {
    const page = this.#tokenTransfers(query, false);
    return page ? (await this.#reads.query({ ...page, rowMode: 'array' })).rows.map(toStoredTokenTransfer) : [];
  }

  async listTokenTransfersWithTransactions(query: TokenTransfersQuery): Promise<StoredTransferWithTransaction[]> {
    const page = this.#tokenTransfers(query, true);
    return page ? (await this.#reads.query({ ...page, rowMode: 'array' })).rows.map(toTransferWithTransaction) : [];
  }

  /** The statement and values of a token's transfer page, alone or (`joined`) each with its transaction's columns; `null` for a page that holds nothing. */
  #tokenTransfers({ token, from, to, startBlock = 0n, endBlock = INT8_MAX, page, offset, sort }: TokenTransfersQuery, joined: boolean): QueryConfig | null {
    if (page < 1 || offset < 1 || startBlock > INT8_MAX || endBlock < INT8_MIN) return null;
    const statement = this.#read.tokenTransfers[tokenTransfersKey(sort === 'asc' ? 'ASC' : 'DESC', from !== undefined, to !== undefined, joined)]!;
    const values: unknown[] = [
      toBytea(token),
      toDecimal(startBlock < INT8_MIN ? INT8_MIN : startBlock),
      toDecimal(endBlock > INT8_MAX ? INT8_MAX : endBlock),
      offset,
      (page - 1) * offset,
    ];
    if (from !== undefined) values.push(toBytea(from));
    if (to !== undefined) values.push(toBytea(to));
    return { ...statement, values };
  }

  async getTokenTransferTip(token: Hex): Promise<ListTip | null> {
    const { rows } = await this.#reads.query<{ length: bigint; blockNumber: bigint }>({ ...this.#read.tokenTransferTip, values: [toBytea(token)] });
    return rows[0] ? { length: Number(rows[0].length), blockNumber: rows[0].blockNumber } : null;
  }

  listTokenTransferRange(token: Hex, range: OrdinalRange): Promise<StoredTokenTransfer[]> {
    return this.#ordinalRange<StoredTokenTransfer>(this.#read.tokenTransferRange, token, range);
  }

  async listTokenTransferRangeWithTransactions(token: Hex, range: OrdinalRange): Promise<StoredTransferWithTransaction[]> {
    return (await this.#ordinalRange<unknown[]>(this.#read.tokenTransferRangeWithTransactions, token, range, 'array')).map(toTransferWithTransaction);
  }

  async listAddressTokenTransfers(query: AddressTokenTransfersQuery): Promise<StoredTokenTransfer[]> {
    const page = this.#addressTokenTransfers(query, this.#read.addressTokenTransfers);
    return page ? (await this.#reads.query({ ...page, rowMode: 'array' })).rows.map(toStoredTokenTransfer) : [];
  }

  async listAddressTokenTransfersWithTokens(query: AddressTokenTransfersQuery): Promise<TransferPageWithTokens> {
    const page = this.#addressTokenTransfers(query, this.#read.addressTokenTransfersWithTokens);
    return page ? toTransferPageWithTokens((await this.#reads.query({ ...page, rowMode: 'array' })).rows) : { transfers: [], tokens: [] };
  }

  /** An address's transfer page by one of the statement pairs that share its parameters; `null` for a page that holds nothing. */
  #addressTokenTransfers(
    { address, token, standard, startBlock = 0n, endBlock = INT8_MAX, page, offset, sort }: AddressTokenTransfersQuery,
    statements: Record<'ASC' | 'DESC', Statement>,
  ): QueryConfig | null {
    if (page < 1 || offset < 1 || startBlock > INT8_MAX || endBlock < INT8_MIN) return null;
    return {
      ...statements[sort === 'asc' ? 'ASC' : 'DESC'],
      values: [
        toBytea(address),
        toDecimal(clampInt8(startBlock)),
        toDecimal(clampInt8(endBlock)),
        offset,
        (page - 1) * offset,
        token === undefined ? null : toBytea(token),
        standard ?? null,
      ],
    };
  }

  async listTokenPairs(token: Hex): Promise<StoredPair[]> {
    const { rows } = await this.#reads.query<StoredPair>({ ...this.#dex.tokenPairs, values: [toBytea(token)] });
    return rows;
  }

  async getPairSyncAt(pair: Hex, timestamp: bigint): Promise<StoredPairSync | null> {
    if (timestamp < INT8_MIN) return null;
    const { rows } = await this.#reads.query<StoredPairSync>({ ...this.#dex.pairSyncAt, values: [toBytea(pair), toDecimal(clampInt8(timestamp))] });
    return rows[0] ?? null;
  }

  async getPairSyncExtremes(pair: Hex, from: bigint, to: bigint): Promise<PairSyncExtremes | null> {
    if (to <= from || to < INT8_MIN || from > INT8_MAX) return null;
    const values = [toBytea(pair), toDecimal(clampInt8(from)), toDecimal(clampInt8(to))];
    const [highest, lowest] = await Promise.all([
      this.#reads.query<StoredPairSync>({ ...this.#dex.pairSyncHighest, values }),
      this.#reads.query<StoredPairSync>({ ...this.#dex.pairSyncLowest, values }),
    ]);
    return highest.rows[0] && lowest.rows[0] ? { highest: highest.rows[0], lowest: lowest.rows[0] } : null;
  }

  async sumPairSwaps(pair: Hex, from: bigint, to: bigint): Promise<PairSwapAmounts> {
    if (to <= from || to < INT8_MIN || from > INT8_MAX) return { amount0In: 0n, amount1In: 0n, amount0Out: 0n, amount1Out: 0n };
    const values = [toBytea(pair), toDecimal(clampInt8(from)), toDecimal(clampInt8(to))];
    const { rows } = await this.#reads.query<PairSwapAmounts>({ ...this.#dex.pairSwapSums, values });
    return rows[0]!;
  }

  async getContractCreation(address: Hex): Promise<StoredContractCreation | null> {
    const { rows } = await this.#reads.query<StoredContractCreation>({ ...this.#contracts.contractCreation, values: [toBytea(address)] });
    return rows[0] ?? null;
  }

  async listInternalTransactions({ address, startBlock = 0n, endBlock = INT8_MAX, page, offset, sort }: InternalTransactionsQuery): Promise<StoredInternalTransaction[]> {
    if (page < 1 || offset < 1 || startBlock > INT8_MAX || endBlock < INT8_MIN) return [];
    const order = sort === 'asc' ? 'ASC' : 'DESC';
    const values: unknown[] = [toDecimal(clampInt8(startBlock)), toDecimal(clampInt8(endBlock)), offset, (page - 1) * offset];
    const statement = address === undefined ? this.#internalTransactions.internalTransactions[order] : this.#internalTransactions.addressInternalTransactions[order];
    if (address !== undefined) values.push(toBytea(address));
    const { rows } = await this.#reads.query<StoredInternalTransaction>({ ...statement, values });
    return rows;
  }

  async listChartRollups({ resolution, from, to }: ChartRollupsQuery): Promise<StoredChartRollup[]> {
    if (to < from || to < INT8_MIN || from > INT8_MAX) return [];
    const { rows } = await this.#reads.query<RollupRow>({ ...this.#insights.chartRollups, values: [resolution, toDecimal(clampInt8(from)), toDecimal(clampInt8(to))] });
    return rows.map(toChartRollup);
  }

  async listTokenRollups({ token, resolution, from, to }: TokenRollupsQuery): Promise<TokenRollupsPage> {
    // Buckets are timestamps, far inside int8: clamped bounds select the same rollups.
    const { rows } = await this.#reads.query<TokenRollupRow>({
      ...this.#insights.tokenRollups,
      values: [toBytea(token), resolution, toDecimal(clampInt8(from)), toDecimal(clampInt8(to))],
    });
    let before: StoredTokenRollup | null = null;
    const rollups: StoredTokenRollup[] = [];
    for (const { before: isBefore, bucket, transfers, holders } of rows) {
      const rollup = { bucket, transfers: Number(transfers), holders: Number(holders) };
      if (isBefore) before = rollup;
      else rollups.push(rollup);
    }
    return { before, rollups };
  }

  async getPairSyncsAt(pair: Hex, timestamps: bigint[]): Promise<(StoredPairSync | null)[]> {
    if (timestamps.length === 0) return [];
    const { rows } = await this.#reads.query<Partial<StoredPairSync>>({ ...this.#insights.pairSyncsAt, values: [toBytea(pair), timestamps.map((at) => toDecimal(clampInt8(at)))] });
    return rows.map(({ pair: found, blockNumber, logIndex, timestamp, reserve0, reserve1 }) =>
      found == null ? null : { pair: found, blockNumber: blockNumber!, logIndex: logIndex!, timestamp: timestamp!, reserve0: reserve0!, reserve1: reserve1! },
    );
  }

  async listApprovals({ owner, page, offset }: ApprovalsQuery): Promise<StoredApproval[]> {
    if (page < 1 || offset < 1) return [];
    const { rows } = await this.#reads.query<StoredApproval>({ ...this.#insights.approvals, values: [toBytea(owner), offset, (page - 1) * offset] });
    return rows;
  }

  async listAddressTransactionsAfter(query: KeysetQuery<TransactionPosition>): Promise<StoredTransaction[]> {
    const range = keysetRange(query, (after) => [after.blockNumber, after.transactionIndex], 1);
    if (!range) return [];
    const { rows } = await this.#reads.query<StoredTransaction>({ ...this.#insights.transactionsAfter, values: [toBytea(query.address), ...range.position, range.end, query.limit] });
    return rows;
  }

  async listAddressInternalTransactionsAfter(query: KeysetQuery<TracePosition>): Promise<StoredInternalTransaction[]> {
    const range = keysetRange(query, (after) => [after.blockNumber, after.transactionIndex, after.traceIndex], 2);
    if (!range) return [];
    const { rows } = await this.#reads.query<StoredInternalTransaction>({ ...this.#insights.internalTransactionsAfter, values: [toBytea(query.address), ...range.position, range.end, query.limit] });
    return rows;
  }

  async listAddressTokenTransfersAfter(query: KeysetQuery<TransferPosition>): Promise<StoredTokenTransfer[]> {
    const range = keysetRange(query, (after) => [after.blockNumber, after.logIndex, after.batchIndex], 2);
    if (!range) return [];
    const { rows } = await this.#reads.query<StoredTokenTransfer>({ ...this.#insights.tokenTransfersAfter, values: [toBytea(query.address), ...range.position, range.end, query.limit] });
    return rows;
  }

  async listAddressLogsAfter(query: KeysetQuery<LogPosition>): Promise<StoredLog[]> {
    const range = keysetRange(query, (after) => [after.blockNumber, after.logIndex], 1);
    if (!range) return [];
    const { rows } = await this.#reads.query<unknown[]>({ ...this.#insights.logsAfter, values: [toBytea(query.address), ...range.position, range.end, query.limit], rowMode: 'array' });
    return rows.map(toStoredLog);
  }

  async getChainTotals(): Promise<ChainTotals> {
    type Totals = { total_transactions: bigint; total_accounts: bigint; total_contracts: bigint };
    const { rows } = await this.#reads.query<Totals>(this.#read.totals);
    const row = rows[0];
    if (!row) throw new Error('postgresStorage: chain_state has no row; was the schema migrated by init()?');
    return {
      totalTransactions: Number(row.total_transactions),
      totalAccounts: Number(row.total_accounts),
      totalContracts: Number(row.total_contracts),
    };
  }

  // Accounts and keys, metadata, labels, verification and counters: each role in its own file.

  createUser(user: StoredUser): Promise<boolean> {
    return this.#accountStorage.createUser(user);
  }

  getUserById(id: string): Promise<StoredUser | null> {
    return this.#accountStorage.getUserById(id);
  }

  getUserByEmail(email: string): Promise<StoredUser | null> {
    return this.#accountStorage.getUserByEmail(email);
  }

  updateUser(id: string, changes: UserChanges): Promise<StoredUser | null> {
    return this.#accountStorage.updateUser(id, changes);
  }

  createApiKey(key: StoredApiKey, cap?: ApiKeyCap): Promise<boolean> {
    return this.#accountStorage.createApiKey(key, cap);
  }

  getApiKeyByHash(keyHash: string): Promise<StoredApiKey | null> {
    return this.#accountStorage.getApiKeyByHash(keyHash);
  }

  getApiKeyWithOwner(keyHash: string): Promise<ApiKeyWithOwner | null> {
    return this.#accountStorage.getApiKeyWithOwner(keyHash);
  }

  listApiKeys(userId: string): Promise<StoredApiKey[]> {
    return this.#accountStorage.listApiKeys(userId);
  }

  updateApiKey(id: string, changes: ApiKeyChanges, ownerId?: string): Promise<StoredApiKey | null> {
    return this.#accountStorage.updateApiKey(id, changes, ownerId);
  }

  putMetadataProfile(profile: StoredMetadataProfile): Promise<void> {
    return this.#metadataStorage.putMetadataProfile(profile);
  }

  getMetadataProfile(address: Hex): Promise<StoredMetadataProfile | null> {
    return this.#metadataStorage.getMetadataProfile(address);
  }

  getMetadataProfiles(addresses: Hex[]): Promise<StoredMetadataProfile[]> {
    return this.#metadataStorage.getMetadataProfiles(addresses);
  }

  listVerifiedAddresses(): Promise<Hex[]> {
    return this.#metadataStorage.listVerifiedAddresses();
  }

  putAddressLabel(label: StoredAddressLabel): Promise<void> {
    return this.#labelStorage.putAddressLabel(label);
  }

  deleteAddressLabel(address: Hex): Promise<boolean> {
    return this.#labelStorage.deleteAddressLabel(address);
  }

  getAddressLabels(addresses: Hex[]): Promise<StoredAddressLabel[]> {
    return this.#labelStorage.getAddressLabels(addresses);
  }

  searchAddressLabels(prefix: string, limit: number): Promise<StoredAddressLabel[]> {
    return this.#labelStorage.searchAddressLabels(prefix, limit);
  }

  getLabelsVersion(): Promise<number> {
    return this.#labelStorage.getLabelsVersion();
  }

  putPrivateLabel(label: StoredPrivateLabel, cap?: PrivateLabelCap): Promise<boolean> {
    return this.#labelStorage.putPrivateLabel(label, cap);
  }

  deletePrivateLabel(userId: string, address: Hex): Promise<boolean> {
    return this.#labelStorage.deletePrivateLabel(userId, address);
  }

  listPrivateLabels(userId: string): Promise<StoredPrivateLabel[]> {
    return this.#labelStorage.listPrivateLabels(userId);
  }

  putVerifiedContract(contract: StoredVerifiedContract): Promise<void> {
    return this.#verificationStorage.putVerifiedContract(contract);
  }

  getVerifiedContract(address: Hex): Promise<StoredVerifiedContract | null> {
    return this.#verificationStorage.getVerifiedContract(address);
  }

  getVerifiedContracts(addresses: Hex[]): Promise<StoredVerifiedContract[]> {
    return this.#verificationStorage.getVerifiedContracts(addresses);
  }

  putVerificationJob(job: StoredVerificationJob): Promise<void> {
    return this.#verificationStorage.putVerificationJob(job);
  }

  getVerificationJob(guid: string): Promise<StoredVerificationJob | null> {
    return this.#verificationStorage.getVerificationJob(guid);
  }

  hitCounters(hits: CounterHit[], now: number): Promise<number[]> {
    return this.#counterStorage.hitCounters(hits, now);
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

}

/** A tokens row: counts come back as int8 (bigint), metadata in columns. */
type TokenRow = Omit<StoredToken, 'transferCount' | 'holderCount' | 'metadata'> &
  StoredTokenMetadata & { transferCount: bigint; holderCount: bigint; metadataRead: boolean };

function toStoredToken({ transferCount, holderCount, metadataRead, name, symbol, decimals, interfaces, ...token }: TokenRow): StoredToken {
  return {
    ...token,
    transferCount: Number(transferCount),
    holderCount: Number(holderCount),
    metadata: metadataRead ? { name, symbol, decimals, interfaces } : null,
  };
}

/** A block row with its transactions' hashes concatenated (`blockWithTransactionHashes`). */
type BlockWithHashesRow = StoredBlock & { transactionHashes: Hex | null };

/** The block of `row` and its transaction hashes, split out of their concatenation. */
function withHashes(row: BlockWithHashesRow): { block: StoredBlock; transactionHashes: Hex[] } {
  const { transactionHashes, ...block } = row;
  const joined = transactionHashes ?? '0x';
  const hashes: Hex[] = [];
  for (let at = 2; at < joined.length; at += 64) hashes.push(`0x${joined.slice(at, at + 64)}`);
  return { block, transactionHashes: hashes };
}

/** A chart_rollups row: counts come back as int8 (bigint). */
type RollupRow = Omit<StoredChartRollup, 'blocks' | 'transactions' | 'newContracts' | 'tokenTransfers' | 'newAddresses' | 'activeAddresses'> &
  Record<'blocks' | 'transactions' | 'newContracts' | 'tokenTransfers' | 'newAddresses' | 'activeAddresses', bigint>;

function toChartRollup(row: RollupRow): StoredChartRollup {
  return {
    bucket: row.bucket,
    blocks: Number(row.blocks),
    transactions: Number(row.transactions),
    gasUsed: row.gasUsed,
    gasPriceSum: row.gasPriceSum,
    newContracts: Number(row.newContracts),
    tokenTransfers: Number(row.tokenTransfers),
    newAddresses: Number(row.newAddresses),
    activeAddresses: Number(row.activeAddresses),
  };
}

/** A token_rollups row, marked when it is the last one before the range. */
interface TokenRollupRow {
  before: boolean;
  bucket: bigint;
  transfers: bigint;
  holders: bigint;
}

/**
 * The parameters of a keyset page: the position to read after (the later of `after` and the
 * range's start, whose position is the start block with `-1` for each of `indexes` indexes) and
 * the end block; `null` when the page is empty whatever is stored.
 */
function keysetRange<P>(
  { startBlock = 0n, endBlock = INT8_MAX, after, limit }: KeysetQuery<P>,
  positionOf: (after: P) => [bigint, ...number[]],
  indexes: number,
): { position: (string | number)[]; end: string } | null {
  if (limit < 1 || startBlock > INT8_MAX || endBlock < INT8_MIN || endBlock < startBlock) return null;
  const start: [bigint, ...number[]] = [clampInt8(startBlock), ...Array.from({ length: indexes }, () => -1)];
  const [block, ...rest] = after !== undefined && positionOf(after)[0] >= start[0] ? positionOf(after) : start;
  return { position: [toDecimal(block), ...rest], end: toDecimal(clampInt8(endBlock)) };
}
