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

/** Everything the indexer learned from one block, written in one atomic step. */
export interface BlockBundle {
  block: StoredBlock;
  /** In `transactionIndex` order. */
  transactions: StoredTransaction[];
  /** In `logIndex` order. */
  logs: StoredLog[];
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

/** First and last activity of an address, with its transaction count. */
export interface AddressActivity {
  transactionCount: number;
  firstSeen: bigint | null;
  lastSeen: bigint | null;
}
