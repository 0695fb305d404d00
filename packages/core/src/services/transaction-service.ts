import { decodeLog, type DecodedError, type DecodedLog, type EventResolver, resolveStandardEvent, verifiedEventResolver } from '../abi/index.js';
import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import { BlockNotFoundError, TransactionNotFoundError, UpstreamUnavailableError } from '../errors/index.js';
import type { RpcCallFrame } from '../chain/rpc-types.js';
import { internalTransactionsOf } from '../indexer/internal-transactions.js';
import type { BlockReader, Hex, InternalTransactionsQuery, StoredTransaction, TransactionReader, VerificationStorage } from '../storage/index.js';
import type { ChainRecordCache } from './chain-record-cache.js';
import type { IndexedHead } from '../events/indexed-head.js';
import { formatLog, formatReceipt, formatTransaction, logAddresses, transactionAddresses, type LogRecord, type ReceiptRecord, type TransactionRecord } from './format.js';
import { labelOf, type LabelLookup } from './address-labels.js';
import type { DelegationService } from './delegation-service.js';
import { calleesOf, explainRevert, VerifiedAbis } from './call-decoding.js';
import { traceFromCallFrame } from './call-trace.js';
import { formatInternalTransaction, type InternalTransactionRecord } from './internal-transactions.js';
import type { z } from 'zod';
import type { decodedLogRecordSchema, transactionInfoRecordSchema } from '../records/record-schemas.js';

/** Decoded log record (spec: Decoded log) with the emitting contract's public label. */
export type DecodedLogRecord = z.infer<typeof decodedLogRecordSchema>;

/** `gettxinfo` record: the Transaction plus outcome and logs. */
export type TransactionInfoRecord = z.infer<typeof transactionInfoRecordSchema>;

/** Blocks read in one storage round trip while walking back for the newest transactions. */
const WALK_BLOCKS = 50n;

/**
 * Blocks below the indexed head the newest-first list looks through: on a chain of empty blocks
 * it stops there rather than read back to genesis.
 */
const NEWEST_TRANSACTIONS_WINDOW_BLOCKS = 10_000n;

/** What {@link TransactionService.list} lists. */
export interface TransactionListQuery {
  /** This block's transactions in block order; absent: the newest transactions, newest first. */
  blockNumber?: bigint;
  page: number;
  offset: number;
}

/** Mined transactions, their receipts and logs, from indexed data. */
export class TransactionService {
  /** `resolveEvent` decodes what the emitters' verified ABIs do not describe (default: the standard ABIs). */
  constructor(
    private readonly storage: BlockReader & TransactionReader & VerificationStorage,
    private readonly head: IndexedHead,
    private readonly chain: ChainClient,
    private readonly records: ChainRecordCache,
    private readonly labels: LabelLookup,
    private readonly delegations: DelegationService,
    /** The first block indexing covers (`startBlock`): none below it is stored. */
    private readonly firstBlock: bigint = 0n,
    private readonly resolveEvent: EventResolver = resolveStandardEvent,
  ) {}

  private async find(hash: Hex): Promise<StoredTransaction> {
    const tx = await this.records.transaction(this.storage, hash);
    if (!tx) throw new TransactionNotFoundError();
    return tx;
  }

  async get(hash: Hex): Promise<TransactionRecord> {
    const [tx, cursor] = await Promise.all([this.find(hash), this.head.current()]);
    return formatTransaction(tx, cursor?.number ?? null, await this.labels.labelsOf(transactionAddresses(tx)));
  }

  /** Many transactions in one storage round trip: in input order, `null` for unknown hashes. */
  async getMany(hashes: Hex[]): Promise<(TransactionRecord | null)[]> {
    const [txs, cursor] = await Promise.all([this.storage.getTransactions(hashes), this.head.current()]);
    const head = cursor?.number ?? null;
    const labels = await this.labels.labelsOf(txs.flatMap((tx) => (tx === null ? [] : transactionAddresses(tx))));
    return txs.map((tx) => (tx === null ? null : formatTransaction(tx, head, labels)));
  }

  /**
   * A block's transactions in block order, or (without a block) the indexed transactions newest
   * first, through the newest {@link NEWEST_TRANSACTIONS_WINDOW_BLOCKS} blocks; `offset` to a page.
   */
  async list(query: TransactionListQuery): Promise<TransactionRecord[]> {
    const cursor = await this.head.current();
    const skip = (query.page - 1) * query.offset;
    let hashes: Hex[];
    if (query.blockNumber !== undefined) {
      const found = cursor && query.blockNumber <= cursor.number ? await this.records.blockWithTransactionHashes(this.storage, query.blockNumber) : null;
      if (!found) throw new BlockNotFoundError();
      hashes = found.transactionHashes.slice(skip, skip + query.offset);
    } else {
      hashes = cursor ? (await this.newestHashes(cursor.number, skip + query.offset)).slice(skip) : [];
    }
    if (hashes.length === 0) return [];
    const txs = (await this.storage.getTransactions(hashes)).filter((tx) => tx !== null);
    const labels = await this.labels.labelsOf(txs.flatMap(transactionAddresses));
    return txs.map((tx) => formatTransaction(tx, cursor?.number ?? null, labels));
  }

  /** The hashes of the newest `count` transactions at or below `head`, newest first. */
  private async newestHashes(head: bigint, count: number): Promise<Hex[]> {
    const hashes: Hex[] = [];
    const floor = head - NEWEST_TRANSACTIONS_WINDOW_BLOCKS > this.firstBlock ? head - NEWEST_TRANSACTIONS_WINDOW_BLOCKS : this.firstBlock;
    for (let top = head; hashes.length < count && top >= floor; top -= WALK_BLOCKS) {
      const numbers: bigint[] = [];
      for (let n = top; n > top - WALK_BLOCKS && n >= floor; n--) numbers.push(n);
      for (const entry of await this.storage.getBlocksWithTransactionHashes(numbers)) {
        if (entry) hashes.push(...entry.transactionHashes.toReversed());
      }
    }
    return hashes.slice(0, count);
  }

  async receipt(hash: Hex): Promise<ReceiptRecord> {
    const [tx, logs] = await Promise.all([this.find(hash), this.storage.getTransactionLogs(hash)]);
    return formatReceipt(tx, logs, await this.labels.labelsOf([...transactionAddresses(tx), ...logAddresses(logs)]));
  }

  /**
   * The transaction's logs; decoded, each with its emitter's verified ABI first (for an account
   * delegating by EIP-7702 at the transaction's block, its target's), then the standard ABIs.
   */
  async logs(hash: Hex, decode: boolean): Promise<LogRecord[] | DecodedLogRecord[]> {
    const [tx, logs] = await Promise.all([this.find(hash), this.storage.getTransactionLogs(hash)]);
    if (!decode) {
      const labels = await this.labels.labelsOf(logAddresses(logs));
      return logs.map((log) => formatLog(log, labels));
    }
    // One read for every emitter of the answer: the resolver itself is synchronous.
    const [verified, labels] = await Promise.all([this.storage.getVerifiedContracts([...new Set(logAddresses(logs))]), this.labels.labelsOf(logAddresses(logs))]);
    let decoded = logs.map((log) => decodeLog(log, verifiedEventResolver(verified, this.resolveEvent)));
    // Unverified emitters left undecoded may be accounts delegating by EIP-7702: their code is read only then.
    const known = new Set(verified.map((contract) => contract.address));
    const undecoded = [...new Set(logs.filter((log, i) => decoded[i]!.eventName === null && !known.has(log.address)).map((log) => log.address))];
    const delegations = undecoded.length === 0 ? new Map<Hex, Hex>() : await this.delegationsOf(undecoded, tx.blockNumber);
    if (delegations.size > 0) {
      const targets = await this.storage.getVerifiedContracts([...new Set(delegations.values())]);
      const resolve = verifiedEventResolver([...verified, ...targets], this.resolveEvent, delegations);
      decoded = decoded.map((log, i) => (log.eventName === null && delegations.has(logs[i]!.address) ? decodeLog(logs[i]!, resolve) : log));
    }
    return decoded.map((log, i) => ({ ...log, contractLabel: labelOf(labels, logs[i]!.address) }));
  }

  /** The EIP-7702 targets of `accounts` at `blockNumber`; none where the node cannot say (the logs are then served as storage decodes them). */
  private async delegationsOf(accounts: Hex[], blockNumber: bigint): Promise<Map<Hex, Hex>> {
    try {
      return await this.delegations.targetsAt(accounts, blockNumber);
    } catch (error) {
      if (error instanceof NodeRpcError || error instanceof UpstreamUnavailableError) return new Map();
      throw error;
    }
  }

  async info(hash: Hex): Promise<TransactionInfoRecord> {
    const [tx, cursor, logs] = await Promise.all([this.find(hash), this.head.current(), this.storage.getTransactionLogs(hash)]);
    const [labels, revert] = await Promise.all([this.labels.labelsOf([...transactionAddresses(tx), ...logAddresses(logs)]), tx.status === 1 ? null : this.revertReason(tx)]);
    return {
      ...formatTransaction(tx, cursor?.number ?? null, labels),
      success: tx.status === 1,
      revertReason: revert?.reason ?? null,
      revertError: revert?.error ?? null,
      logs: logs.map((log) => formatLog(log, labels)),
    };
  }

  /**
   * The value transfers and creations inside a mined transaction, from the node's call trace
   * (read when asked, so a failed transaction's undone ones are listed too); `null` when the
   * node does not trace.
   */
  async internalTransactions(hash: Hex): Promise<InternalTransactionRecord[] | null> {
    const tx = await this.find(hash);
    let trace: RpcCallFrame;
    try {
      trace = await this.chain.request<RpcCallFrame>('debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }]);
    } catch (error) {
      if (error instanceof NodeRpcError) return null;
      throw error;
    }
    return internalTransactionsOf(tx, trace).map(formatInternalTransaction);
  }

  /**
   * Indexed internal transactions of successful transactions, of one address or all, by block
   * range, sorted and paged (see `TransactionReader.listInternalTransactions`). Empty where the node does
   * not trace: the indexer then learns none.
   */
  async listInternalTransactions(query: InternalTransactionsQuery): Promise<InternalTransactionRecord[]> {
    return (await this.storage.listInternalTransactions(query)).map(formatInternalTransaction);
  }

  /**
   * Why a mined transaction failed: the call tracer's output where the node traces, else a
   * replay of the call on the parent block's state (close, but blind to earlier transactions
   * of the same block). Revert data that is no standard error is looked up as a custom error in
   * the verified ABIs of the contracts it called (the callee's first).
   */
  private async revertReason(tx: StoredTransaction): Promise<{ reason: string; error: DecodedError | null }> {
    try {
      const trace = await this.chain.request<RpcCallFrame & { revertReason?: string }>('debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }]);
      return await this.explain(trace.output, trace.revertReason ?? trace.error ?? 'execution reverted', tx.to, calleesOf(traceFromCallFrame(trace)));
    } catch (error) {
      if (error instanceof UpstreamUnavailableError) throw error;
    }
    try {
      await this.chain.request('eth_call', [
        { from: tx.from, to: tx.to, data: tx.input, value: `0x${tx.value.toString(16)}`, gas: `0x${tx.gas.toString(16)}` },
        `0x${(tx.blockNumber - 1n).toString(16)}`,
      ]);
      return { reason: 'execution reverted', error: null };
    } catch (error) {
      if (error instanceof NodeRpcError) return this.explain(typeof error.data === 'string' ? error.data : undefined, error.message, tx.to, []);
      throw error;
    }
  }

  private async explain(data: string | undefined, fallback: string, callee: Hex | null, callees: Hex[]): Promise<{ reason: string; error: DecodedError | null }> {
    const addresses = [...new Set([...(callee === null ? [] : [callee]), ...callees])];
    const verified = data !== undefined && addresses.length > 0 ? await this.storage.getVerifiedContracts(addresses) : [];
    return explainRevert(data, fallback, new VerifiedAbis(verified).errorAbis([callee]));
  }
}
