import type { AddressActivity, AddressTransactionsQuery, Hex, InternalTransactionsQuery, StoredContractCreation, StoredInternalTransaction, StoredLog, StoredTransaction, TransactionReader, TransactionsBetweenQuery } from '@chainlens/core';
import { ChainRole } from './chain-state.js';

/** Transactions by hash and by address, internal transactions and contract creations, from the chain state. */
export class MemoryTransactionReader extends ChainRole implements TransactionReader {
  async getTransaction(hash: Hex): Promise<StoredTransaction | null> {
    return this.state.transactions.get(hash)?.tx ?? null;
  }

  async getTransactions(hashes: Hex[]): Promise<(StoredTransaction | null)[]> {
    return hashes.map((hash) => this.state.transactions.get(hash)?.tx ?? null);
  }

  async getTransactionLogs(hash: Hex): Promise<StoredLog[]> {
    return [...(this.state.transactions.get(hash)?.logs ?? [])];
  }

  async listAddressTransactions(query: AddressTransactionsQuery): Promise<StoredTransaction[]> {
    return this.state.addresses.list(query);
  }

  async listAddressTransactionHashes(query: AddressTransactionsQuery): Promise<Hex[]> {
    return this.state.addresses.list(query).map((tx) => tx.hash);
  }

  async listTransactionsBetween(query: TransactionsBetweenQuery): Promise<StoredTransaction[]> {
    return this.state.addresses.between(query);
  }

  async getAddressActivity(address: Hex): Promise<AddressActivity> {
    const span = this.state.addresses.span(address);
    if (!span) return { transactionCount: 0, firstSeen: null, lastSeen: null };
    return {
      transactionCount: span.count,
      firstSeen: this.state.blockAt(span.first.blockNumber)!.block.timestamp,
      lastSeen: this.state.blockAt(span.last.blockNumber)!.block.timestamp,
    };
  }

  async listInternalTransactions(query: InternalTransactionsQuery): Promise<StoredInternalTransaction[]> {
    return this.state.internalTransactions.list(query);
  }

  async getContractCreation(address: Hex): Promise<StoredContractCreation | null> {
    return this.state.contracts.get(address)?.at(-1) ?? null;
  }
}
