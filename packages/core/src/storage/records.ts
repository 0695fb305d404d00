import type { StoredApproval } from './approval-records.js';
import type { StoredContractCreation } from './contract-records.js';
import type { StoredPair, StoredPairSwap, StoredPairSync } from './dex-records.js';
import type { StoredInternalTransaction } from './internal-transaction-records.js';

/**
 * Records as storage keeps them: canonical and exact. Hashes, addresses and hex data are
 * lowercase `0x` strings; quantities are `bigint` so no uint256 ever passes through a JS number.
 * Services turn these into the spec's string-typed API records.
 */

/** A `0x`-prefixed lowercase hex string. */
export type Hex = `0x${string}`;

/** A block header as indexed. */
export interface StoredBlock {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  /** Unix seconds. */
  timestamp: bigint;
  miner: Hex;
  gasUsed: bigint;
  gasLimit: bigint;
  /** `null` before London. */
  baseFeePerGas: bigint | null;
  difficulty: bigint;
  size: bigint;
  stateRoot: Hex;
  transactionsRoot: Hex;
  receiptsRoot: Hex;
  extraData: Hex;
  transactionCount: number;
}

/** A mined transaction joined with its receipt (logs are kept as {@link StoredLog}). */
export interface StoredTransaction {
  hash: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  transactionIndex: number;
  /** Unix seconds of the including block. */
  timestamp: bigint;
  from: Hex;
  /** `null` for a contract creation. */
  to: Hex | null;
  value: bigint;
  gas: bigint;
  /** The price the sender offered (`gasPrice`, or `maxFeePerGas` for EIP-1559). */
  gasPrice: bigint;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  nonce: bigint;
  input: Hex;
  /** Transaction type number (0 legacy, 1 access list, 2 EIP-1559, 3 blob, 4 set-code…). */
  type: number;
  /** Receipt status: 1 success, 0 failure. */
  status: 0 | 1;
  gasUsed: bigint;
  cumulativeGasUsed: bigint;
  effectiveGasPrice: bigint;
  /** Address of the contract this transaction created, else `null`. */
  contractAddress: Hex | null;
  logsBloom: Hex;
}

/** An event log of a mined transaction. */
export interface StoredLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  transactionHash: Hex;
  transactionIndex: number;
  /** Position of the log in its block. */
  logIndex: number;
}

/** A log with what Etherscan's getLogs shows of its transaction: the block time and the gas it paid. */
export interface StoredLogWithGas extends StoredLog {
  /** Unix seconds of the including block. */
  timestamp: bigint;
  /** The price the transaction paid per gas, Wei. */
  effectiveGasPrice: bigint;
  gasUsed: bigint;
}

/** The token standard a transfer event belongs to. */
export type TokenStandard = 'ERC-20' | 'ERC-721' | 'ERC-1155';

/**
 * A token movement decoded from a standard event of a log of the same block: ERC-20 or ERC-721
 * `Transfer`, ERC-1155 `TransferSingle`, or one entry of a `TransferBatch`. Mints come from the
 * zero address and burns go to it.
 */
export interface StoredTokenTransfer {
  blockNumber: bigint;
  /** The log that carried it. */
  logIndex: number;
  /** Position within an ERC-1155 `TransferBatch`; 0 for every other event. */
  batchIndex: number;
  transactionHash: Hex;
  transactionIndex: number;
  /** Block timestamp (Unix seconds). */
  timestamp: bigint;
  /** The token contract (the log's address). */
  token: Hex;
  standard: TokenStandard;
  /** The ERC-1155 operator, `null` for the other standards. */
  operator: Hex | null;
  from: Hex;
  to: Hex;
  /** Amount in base units; 1 for an ERC-721 token. */
  value: bigint;
  /** ERC-721 and ERC-1155 token id, `null` for ERC-20. */
  tokenId: bigint | null;
}

/** A transaction as list answers show it: every stored field but its logs bloom (256 bytes a row that no list shows). */
export type ListedTransaction = Omit<StoredTransaction, 'logsBloom'>;

/** A token transfer with the transaction that made it. */
export interface StoredTransferWithTransaction {
  transfer: StoredTokenTransfer;
  transaction: ListedTransaction;
}

/** Everything the indexer learned from one block, written in one atomic step. */
export interface BlockBundle {
  block: StoredBlock;
  /** In `transactionIndex` order. */
  transactions: StoredTransaction[];
  /** In `logIndex` order. */
  logs: StoredLog[];
  /** Decoded from `logs`, in (`logIndex`, `batchIndex`) order. */
  tokenTransfers: StoredTokenTransfer[];
  /** Decoded from `logs` (`PairCreated`), in `logIndex` order. */
  pairs: StoredPair[];
  /** Decoded from `logs` (`Sync`), in `logIndex` order. */
  pairSyncs: StoredPairSync[];
  /** Decoded from `logs` (`Swap`), in `logIndex` order. */
  pairSwaps: StoredPairSwap[];
  /** Decoded from `logs` (`Approval`, `ApprovalForAll`), in `logIndex` order. */
  approvals: StoredApproval[];
  /** Contracts created, in (`transactionIndex`, `traceIndex`) order. */
  contracts: StoredContractCreation[];
  /** From the call traces where the block was traced (else none), in (`transactionIndex`, `traceIndex`) order. */
  internalTransactions: StoredInternalTransaction[];
}

/** Where the indexer stands: the last block written. */
export interface IndexerCursor {
  number: bigint;
  hash: Hex;
}

/** Running totals over everything indexed. */
export interface ChainTotals {
  totalTransactions: number;
  /** Distinct addresses seen as a sender, a recipient or a created contract. */
  totalAccounts: number;
  /** Contracts created by indexed transactions (top-level creations). */
  totalContracts: number;
}

/** Filter and page for an address's transactions. */
/** A page of the blocks one address mined (was the fee recipient of). */
export interface MinerBlocksQuery {
  miner: Hex;
  /** 1-based. */
  page: number;
  /** Page size. */
  offset: number;
}

export interface AddressTransactionsQuery {
  address: Hex;
  /** Inclusive; default 0. */
  startBlock?: bigint;
  /** Inclusive; default no upper bound. */
  endBlock?: bigint;
  /** 1-based. */
  page: number;
  /** Page size. */
  offset: number;
  sort: 'asc' | 'desc';
}

/** A page of the transactions two addresses share (each the sender, recipient or created contract). */
export interface TransactionsBetweenQuery {
  address: Hex;
  counterparty: Hex;
  page: number;
  offset: number;
  sort: 'asc' | 'desc';
}

/** Filter and page of the logs a contract emitted. */
/**
 * How long a list kept in chain order is (a token's transfers, a contract's logs) and the block
 * of its newest entry, read together: the list's entries are numbered 1 to `length` in chain
 * order, and every entry of a block up to `blockNumber` is counted.
 */
export interface ListTip {
  length: number;
  blockNumber: bigint;
}

/**
 * Entries `first` to `last` (inclusive) of a list kept in chain order, by the ordinals
 * {@link ListTip} counts (1 is the oldest entry): a page of such a list at any depth.
 */
export interface OrdinalRange {
  first: number;
  last: number;
}

export interface AddressLogsQuery {
  address: Hex;
  /** Inclusive block range. */
  startBlock?: bigint;
  endBlock?: bigint;
  /** Only logs whose first topic (an event's selector) is this. */
  topic0?: Hex;
  page: number;
  offset: number;
  sort: 'asc' | 'desc';
}

/** First and last activity of an address, with its transaction count. */
export interface AddressActivity {
  transactionCount: number;
  firstSeen: bigint | null;
  lastSeen: bigint | null;
}
