import { BlockNotFoundError, TransactionNotFoundError } from '../../errors/index.js';
import { formatInternalTransaction, type DomainServices } from '../../services/index.js';
import type { Storage, StoredWebhookDelivery } from '../../storage/index.js';

/**
 * The `data` of a delivery: its block's number and hash, and the record it tells of exactly as
 * the REST API serves it (a block, a transaction, a token transfer with its token and
 * transaction, an internal transaction), shaped by the same services.
 */
export class WebhookPayloads {
  constructor(
    private readonly services: Pick<DomainServices, 'blocks' | 'transactions' | 'tokens'>,
    private readonly storage: Pick<Storage, 'listInternalTransactions'>,
  ) {}

  /**
   * The delivery's data as JSON, or `null` when its record is not (or no longer) stored in the
   * block it was written with: a reorg took it, or a replica has not caught up yet.
   */
  async of(delivery: StoredWebhookDelivery): Promise<string | null> {
    const record = await this.#record(delivery).catch((error: unknown) => {
      if (error instanceof BlockNotFoundError || error instanceof TransactionNotFoundError) return null;
      throw error;
    });
    if (record === null) return null;
    return JSON.stringify({ blockNumber: delivery.blockNumber.toString(), blockHash: delivery.blockHash, ...record });
  }

  async #record({ subject, blockNumber, blockHash }: StoredWebhookDelivery): Promise<Record<string, unknown> | null> {
    switch (subject.kind) {
      case 'block': {
        const block = await this.services.blocks.getBlock(blockNumber);
        return block.hash === blockHash ? { block } : null;
      }
      case 'transaction': {
        const transaction = await this.services.transactions.get(subject.transactionHash);
        return transaction.blockHash === blockHash ? { transaction } : null;
      }
      case 'token_transfer': {
        const transfers = await this.services.tokens.transactionTransfers(subject.transactionHash);
        // ERC-1155 batches share their log: the batch index counts among its entries.
        const transfer = transfers.filter((entry) => entry.logIndex === String(subject.logIndex))[subject.batchIndex];
        return transfer && transfer.transaction.blockHash === blockHash ? { transfer } : null;
      }
      case 'internal_transaction': {
        const internals = await this.storage.listInternalTransactions({ startBlock: blockNumber, endBlock: blockNumber, page: 1, offset: 10_000, sort: 'asc' });
        const internal = internals.find((entry) => entry.transactionHash === subject.transactionHash && entry.traceIndex === subject.traceIndex);
        return internal ? { internalTransaction: formatInternalTransaction(internal) } : null;
      }
    }
  }
}
