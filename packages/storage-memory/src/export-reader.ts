import type { ExportReader, KeysetQuery, LogPosition, StoredInternalTransaction, StoredLog, StoredTokenTransfer, StoredTransaction, TracePosition, TransactionPosition, TransferPosition } from '@chainlens/core';
import { ChainRole } from './chain-state.js';

/** Keyset pages of an address's records for CSV exports, from the chain state. */
export class MemoryExportReader extends ChainRole implements ExportReader {
  async listAddressTransactionsAfter(query: KeysetQuery<TransactionPosition>): Promise<StoredTransaction[]> {
    return this.state.addresses.listAfter(query);
  }

  async listAddressInternalTransactionsAfter(query: KeysetQuery<TracePosition>): Promise<StoredInternalTransaction[]> {
    return this.state.internalTransactions.listAfter(query);
  }

  async listAddressTokenTransfersAfter(query: KeysetQuery<TransferPosition>): Promise<StoredTokenTransfer[]> {
    return this.state.tokens.listAddressTransfersAfter(query);
  }

  async listAddressLogsAfter(query: KeysetQuery<LogPosition>): Promise<StoredLog[]> {
    return this.state.logs.listAfter(query);
  }
}
