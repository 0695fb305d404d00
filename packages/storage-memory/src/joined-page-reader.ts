import type { AddressTokenTransfersQuery, Hex, JoinedPageReader, ListedTransaction, LogsQuery, OrdinalRange, StoredLog, StoredLogWithGas, StoredTokenTransfer, StoredTransaction, StoredTransferWithTransaction, TokenTransfersQuery, TransferPageWithTokens } from '@chainlens/core';
import { ChainRole } from './chain-state.js';

/** Log and transfer pages with their transactions, from the chain state (one synchronous read, so never torn). */
export class MemoryJoinedPageReader extends ChainRole implements JoinedPageReader {
  async listLogsWithGas(query: LogsQuery): Promise<StoredLogWithGas[]> {
    return this.#withGas(this.state.logs.listLogs(query));
  }

  async listAddressLogRangeWithGas(address: Hex, range: OrdinalRange): Promise<StoredLogWithGas[]> {
    return this.#withGas(this.state.logs.range(address, range));
  }

  async listTokenTransfersWithTransactions(query: TokenTransfersQuery): Promise<StoredTransferWithTransaction[]> {
    return this.#withTransactions(this.state.tokens.listTransfers(query));
  }

  async listTokenTransferRangeWithTransactions(token: Hex, range: OrdinalRange): Promise<StoredTransferWithTransaction[]> {
    return this.#withTransactions(this.state.tokens.transferRange(token, range));
  }

  async listAddressTokenTransfersWithTokens(query: AddressTokenTransfersQuery): Promise<TransferPageWithTokens> {
    const transfers = this.#withTransactions(this.state.tokens.listAddressTransfers(query));
    const tokens = [...new Set(transfers.map(({ transfer }) => transfer.token))].map((address) => {
      const token = this.state.tokens.getToken(address);
      // Tokens are written with their first transfer and rolled back with it: a miss is a broken store.
      if (!token) throw new Error(`memoryStorage: token ${address} of a stored transfer is missing`);
      return token;
    });
    return { transfers, tokens };
  }

  #withGas(logs: StoredLog[]): StoredLogWithGas[] {
    return logs.map((log) => {
      const { timestamp, effectiveGasPrice, gasUsed } = this.#transaction(log.transactionHash);
      return { ...log, timestamp, effectiveGasPrice, gasUsed };
    });
  }

  #withTransactions(transfers: StoredTokenTransfer[]): StoredTransferWithTransaction[] {
    return transfers.map((transfer) => ({ transfer, transaction: listed(this.#transaction(transfer.transactionHash)) }));
  }

  #transaction(hash: Hex): StoredTransaction {
    const tx = this.state.transactions.get(hash)?.tx;
    // Logs and transfers are written with their transactions in one block: a miss is a broken store.
    if (!tx) throw new Error(`memoryStorage: transaction ${hash} of a stored log or transfer is missing`);
    return tx;
  }
}

/** A transaction without its logs bloom, as list pages carry it. */
function listed({ logsBloom: _, ...transaction }: StoredTransaction): ListedTransaction {
  return transaction;
}
