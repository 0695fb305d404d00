import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import { BlockNotFoundError, QueryTooLargeError } from '../errors/index.js';
import type { AddressTransactionsQuery, Hex, TokenReader, TransactionReader } from '../storage/index.js';
import type { ChainRecordCache } from './chain-record-cache.js';
import type { IndexedHead } from '../events/indexed-head.js';
import { formatTransaction, transactionAddresses, type TransactionRecord } from './format.js';
import { labelOf, type LabelLookup } from './address-labels.js';
import type { z } from 'zod';
import type { accountSummaryRecordSchema, balanceRecordSchema } from '../records/record-schemas.js';
import type { beaconWithdrawalRecordSchema } from '../records/etherscan-record-schemas.js';

/** Account balance record. */
export type BalanceRecord = z.infer<typeof balanceRecordSchema>;

/** An address at a glance (decisions.md: `GET /account/summary`). */
export type AccountSummaryRecord = z.infer<typeof accountSummaryRecordSchema>;

/** A beacon-chain withdrawal credited to an address. */
export type BeaconWithdrawalRecord = z.infer<typeof beaconWithdrawalRecordSchema>;

/** What {@link AccountService.beaconWithdrawals} reads. */
export interface BeaconWithdrawalsQuery {
  address: Hex;
  /** Inclusive; default the first block and the newest indexed one. */
  startBlock?: bigint;
  endBlock?: bigint;
}

/** The most blocks one {@link AccountService.beaconWithdrawals} reads from the node; more is {@link QueryTooLargeError}. */
const MAX_WITHDRAWAL_BLOCKS = 1_000;
/** Blocks read from the node at once. */
const WITHDRAWAL_READS = 10;

interface NodeBlockWithdrawals {
  number: string;
  timestamp: string;
  withdrawals?: { index: string; validatorIndex: string; address: string; amount: string }[];
}

/** Accounts: balances from the node at the indexed head, transaction lists from storage. */
export class AccountService {
  constructor(
    private readonly storage: TransactionReader & TokenReader,
    private readonly head: IndexedHead,
    private readonly chain: ChainClient,
    private readonly records: ChainRecordCache,
    private readonly labels: LabelLookup,
  ) {}

  /** The address's balance record ({@link weiBalance} at the newest indexed block) with its label. */
  async balance(address: Hex): Promise<BalanceRecord> {
    const [{ balance, blockNumber }, labels] = await Promise.all([this.weiBalance(address), this.labels.labelsOf([address])]);
    return { address, label: labelOf(labels, address), balance, blockNumber };
  }

  /**
   * The balance in Wei (decimal) at the newest indexed block, so it agrees with the transactions
   * the API lists; before anything is indexed, at the node's latest block. With `block`, the
   * balance the node reports at that block ({@link BlockNotFoundError} for one it does not have).
   * No label is read: for answers that show none (Etherscan's).
   */
  async weiBalance(address: Hex, block?: bigint): Promise<{ balance: string; blockNumber: string }> {
    if (block !== undefined) {
      let balance: string;
      try {
        balance = await this.chain.request<string>('eth_getBalance', [address, `0x${block.toString(16)}`]);
      } catch (error) {
        throw error instanceof NodeRpcError ? new BlockNotFoundError() : error;
      }
      return { balance: BigInt(balance).toString(), blockNumber: block.toString() };
    }
    const cursor = await this.head.current();
    const [balance, blockNumber] = await Promise.all([
      this.chain.request<string>('eth_getBalance', [address, cursor ? `0x${cursor.number.toString(16)}` : 'latest']),
      cursor ? Promise.resolve(cursor.number) : this.chain.request<string>('eth_blockNumber').then(BigInt),
    ]);
    return { balance: BigInt(balance).toString(), blockNumber: blockNumber.toString() };
  }

  /**
   * Withdrawals to `address` in the blocks of the range, oldest first, read from the node's
   * blocks (the indexer keeps none): at most {@link MAX_WITHDRAWAL_BLOCKS} blocks. A chain
   * without withdrawals (before Shanghai, or without a beacon chain) has none to list.
   */
  async beaconWithdrawals(query: BeaconWithdrawalsQuery): Promise<BeaconWithdrawalRecord[]> {
    const cursor = await this.head.current();
    if (!cursor) return [];
    const first = query.startBlock ?? 0n;
    const last = query.endBlock === undefined || query.endBlock > cursor.number ? cursor.number : query.endBlock;
    if (last < first) return [];
    if (last - first + 1n > BigInt(MAX_WITHDRAWAL_BLOCKS)) throw new QueryTooLargeError();
    const found: BeaconWithdrawalRecord[] = [];
    for (let from = first; from <= last; from += BigInt(WITHDRAWAL_READS)) {
      const numbers: bigint[] = [];
      for (let n = from; n <= last && n < from + BigInt(WITHDRAWAL_READS); n++) numbers.push(n);
      const blocks = await Promise.all(numbers.map((n) => this.chain.request<NodeBlockWithdrawals | null>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])));
      for (const block of blocks) {
        if (!block) throw new BlockNotFoundError();
        for (const withdrawal of block.withdrawals ?? []) {
          if (withdrawal.address.toLowerCase() !== query.address) continue;
          found.push({
            withdrawalIndex: BigInt(withdrawal.index).toString(),
            validatorIndex: BigInt(withdrawal.validatorIndex).toString(),
            address: query.address,
            amount: BigInt(withdrawal.amount).toString(),
            blockNumber: BigInt(block.number).toString(),
            timestamp: BigInt(block.timestamp).toString(),
          });
        }
      }
    }
    return found;
  }

  /** Balance, activity and kind of an address, as of the newest indexed block. */
  async summary(address: Hex): Promise<AccountSummaryRecord> {
    const tag = await this.head.blockTag();
    const [balance, code, activity, tokenTransferCount, labels] = await Promise.all([
      this.chain.request<string>('eth_getBalance', [address, tag]),
      this.chain.request<string>('eth_getCode', [address, tag]),
      this.storage.getAddressActivity(address),
      this.storage.countAddressTokenTransfers(address),
      this.labels.labelsOf([address]),
    ]);
    return {
      address,
      label: labelOf(labels, address),
      balance: BigInt(balance).toString(),
      transactionCount: activity.transactionCount,
      tokenTransferCount,
      firstSeen: activity.firstSeen?.toString() ?? null,
      lastSeen: activity.lastSeen?.toString() ?? null,
      isContract: code !== '0x' && code !== '0x0',
    };
  }

  /**
   * A page of the address's transactions. Where the address's pages were kept in the record cache,
   * its hashes are read from storage and its records from the cache, so after a new block a page
   * reads little more than its hashes; an address seldom read has its page read whole.
   */
  async transactions(query: AddressTransactionsQuery): Promise<TransactionRecord[]> {
    const [txs, cursor] = await Promise.all([
      this.records.transactionPage(
        this.storage,
        `address:${query.address}`,
        () => this.storage.listAddressTransactionHashes(query),
        () => this.storage.listAddressTransactions(query),
      ),
      this.head.current(),
    ]);
    const head = cursor?.number ?? null;
    const labels = await this.labels.labelsOf(txs.flatMap(transactionAddresses));
    return txs.map((tx) => formatTransaction(tx, head, labels));
  }
}
