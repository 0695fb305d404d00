import type { ChainClient } from '../chain/chain-client.js';
import type { RpcTransaction } from '../chain/rpc-types.js';
import { TransactionNotFoundError } from '../errors/index.js';
import type { PendingTracker } from '../indexer/pending-tracker.js';
import type { Hex, TransactionReader } from '../storage/index.js';
import type { ConsensusService } from './consensus-service.js';
import { confirmationsOf } from './format.js';
import type { ChainRecordCache } from './chain-record-cache.js';
import type { IndexedHead } from '../events/indexed-head.js';
import type { z } from 'zod';
import type { transactionStatusRecordSchema } from '../records/record-schemas.js';

/** Transaction status record (spec: Transaction status). */
export type TransactionStatusRecord = z.infer<typeof transactionStatusRecordSchema>;

/**
 * Where a transaction stands. Indexed transactions are `failed`, `finalized` or `confirmed`;
 * others are `pending` while in the pool and `dropped` once they left it and the indexer has
 * passed the head at which they left without seeing them mined.
 */
export class StatusService {
  constructor(
    private readonly storage: TransactionReader,
    private readonly head: IndexedHead,
    private readonly chain: ChainClient,
    private readonly pending: PendingTracker,
    /** Finality as the configured consensus source decides it. */
    private readonly finality: ConsensusService,
    private readonly records: ChainRecordCache,
  ) {}

  async status(hash: Hex): Promise<TransactionStatusRecord> {
    const [tx, cursor] = await Promise.all([this.records.transaction(this.storage, hash), this.head.current()]);
    const head = cursor?.number ?? null;
    if (tx) {
      const confirmations = Number(confirmationsOf(tx.blockNumber, head));
      const base = { hash, blockNumber: tx.blockNumber.toString(), confirmations, timestamp: tx.timestamp.toString() };
      if (tx.status === 0) return { ...base, status: 'failed' };
      const finalized = await this.finality.finalizedBlock(head);
      return { ...base, status: finalized !== null && tx.blockNumber <= finalized ? 'finalized' : 'confirmed' };
    }
    const tracked = this.pending.lookup(hash);
    if (tracked?.state === 'pending') return this.pendingRecord(hash, tracked.transaction.submittedAt);
    if (tracked?.state === 'gone' && head !== null && head >= tracked.goneAtHead) {
      return { hash, status: 'dropped', blockNumber: null, confirmations: 0, timestamp: tracked.transaction.submittedAt.toString() };
    }
    // Not indexed (yet) and not known to have been dropped: the node has the last word.
    const onNode = await this.chain.request<RpcTransaction | null>('eth_getTransactionByHash', [hash]);
    if (!onNode) throw new TransactionNotFoundError();
    if (onNode.blockNumber === null) return this.pendingRecord(hash, tracked?.transaction.submittedAt ?? null);
    const blockNumber = BigInt(onNode.blockNumber);
    const nodeHead = BigInt(await this.chain.request<string>('eth_blockNumber'));
    return { hash, status: 'confirmed', blockNumber: blockNumber.toString(), confirmations: Number(confirmationsOf(blockNumber, nodeHead)), timestamp: null };
  }

  private pendingRecord(hash: Hex, seenAt: bigint | null): TransactionStatusRecord {
    return { hash, status: 'pending', blockNumber: null, confirmations: 0, timestamp: seenAt === null ? null : seenAt.toString() };
  }
}
