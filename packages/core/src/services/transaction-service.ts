import { decodeLog, type DecodedLogRecord, type EventResolver, resolveStandardEvent } from '../abi/index.js';
import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import { decodeRevertReason } from '../chain/revert-reason.js';
import { TransactionNotFoundError, UpstreamUnavailableError } from '../errors/index.js';
import type { Hex, Storage, StoredTransaction } from '../storage/index.js';
import type { IndexedHead } from './indexed-head.js';
import { formatLog, formatReceipt, formatTransaction, type LogRecord, type ReceiptRecord, type TransactionRecord } from './format.js';

/** `gettxinfo` record: the Transaction plus outcome and logs. */
export interface TransactionInfoRecord extends TransactionRecord {
  success: boolean;
  /** Why a failed transaction reverted; `null` for a success. */
  revertReason: string | null;
  logs: LogRecord[];
}

interface CallTrace {
  output?: string;
  revertReason?: string;
  error?: string;
}

/** Mined transactions, their receipts and logs, from indexed data. */
export class TransactionService {
  constructor(
    private readonly storage: Storage,
    private readonly head: IndexedHead,
    private readonly chain: ChainClient,
    private readonly resolveEvent: EventResolver = resolveStandardEvent,
  ) {}

  private async find(hash: Hex): Promise<StoredTransaction> {
    const tx = await this.storage.getTransaction(hash);
    if (!tx) throw new TransactionNotFoundError();
    return tx;
  }

  async get(hash: Hex): Promise<TransactionRecord> {
    const [tx, cursor] = await Promise.all([this.find(hash), this.head.current()]);
    return formatTransaction(tx, cursor?.number ?? null);
  }

  async receipt(hash: Hex): Promise<ReceiptRecord> {
    const [tx, logs] = await Promise.all([this.find(hash), this.storage.getTransactionLogs(hash)]);
    return formatReceipt(tx, logs);
  }

  async logs(hash: Hex, decode: boolean): Promise<LogRecord[] | DecodedLogRecord[]> {
    const [, logs] = await Promise.all([this.find(hash), this.storage.getTransactionLogs(hash)]);
    return decode ? logs.map((log) => decodeLog(log, this.resolveEvent)) : logs.map(formatLog);
  }

  async info(hash: Hex): Promise<TransactionInfoRecord> {
    const [tx, cursor, logs] = await Promise.all([this.find(hash), this.head.current(), this.storage.getTransactionLogs(hash)]);
    return {
      ...formatTransaction(tx, cursor?.number ?? null),
      success: tx.status === 1,
      revertReason: tx.status === 1 ? null : await this.revertReason(tx),
      logs: logs.map(formatLog),
    };
  }

  /**
   * Why a mined transaction failed: the call tracer's output where the node traces, else a
   * replay of the call on the parent block's state (close, but blind to earlier transactions
   * of the same block).
   */
  private async revertReason(tx: StoredTransaction): Promise<string> {
    try {
      const trace = await this.chain.request<CallTrace>('debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }]);
      return decodeRevertReason(trace.output, trace.revertReason ?? trace.error ?? 'execution reverted');
    } catch (error) {
      if (error instanceof UpstreamUnavailableError) throw error;
    }
    try {
      await this.chain.request('eth_call', [
        { from: tx.from, to: tx.to, data: tx.input, value: `0x${tx.value.toString(16)}`, gas: `0x${tx.gas.toString(16)}` },
        `0x${(tx.blockNumber - 1n).toString(16)}`,
      ]);
      return 'execution reverted';
    } catch (error) {
      if (error instanceof NodeRpcError) return decodeRevertReason(error.data, error.message);
      throw error;
    }
  }
}
