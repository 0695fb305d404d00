import type { ChainClient } from '../chain/chain-client.js';
import type { AddressTransactionsQuery, Hex, Storage } from '../storage/index.js';
import type { IndexedHead } from './indexed-head.js';
import { formatTransaction, type TransactionRecord } from './format.js';

/** Account balance record. */
export interface BalanceRecord {
  address: string;
  /** Wei, decimal. */
  balance: string;
  /** The block the balance was read at (the newest indexed block, else the node's latest). */
  blockNumber: string;
}

/** Accounts: balances from the node at the indexed head, transaction lists from storage. */
export class AccountService {
  constructor(
    private readonly storage: Storage,
    private readonly head: IndexedHead,
    private readonly chain: ChainClient,
  ) {}

  /**
   * The balance at the newest indexed block, so it agrees with the transactions the API
   * lists; before anything is indexed, at the node's latest block.
   */
  async balance(address: Hex): Promise<BalanceRecord> {
    const cursor = await this.head.current();
    const tag = cursor ? `0x${cursor.number.toString(16)}` : 'latest';
    const [balance, blockNumber] = await Promise.all([
      this.chain.request<string>('eth_getBalance', [address, tag]),
      cursor ? Promise.resolve(cursor.number) : this.chain.request<string>('eth_blockNumber').then(BigInt),
    ]);
    return { address, balance: BigInt(balance).toString(), blockNumber: blockNumber.toString() };
  }

  async transactions(query: AddressTransactionsQuery): Promise<TransactionRecord[]> {
    const [txs, cursor] = await Promise.all([this.storage.listAddressTransactions(query), this.head.current()]);
    const head = cursor?.number ?? null;
    return txs.map((tx) => formatTransaction(tx, head));
  }
}
