import type {
  Hex,
  StoredApproval,
  StoredBlock,
  StoredContractCreation,
  StoredInternalTransaction,
  StoredLog,
  StoredPair,
  StoredPairSwap,
  StoredPairSync,
  StoredTokenTransfer,
  StoredTransaction,
} from '@chainlens/core';
import { AddressIndex } from './address-index.js';
import { ApprovalIndex } from './approval-index.js';
import { type BlockRollup, ChartIndex } from './chart-index.js';
import { DexIndex } from './dex-index.js';
import { InternalTransactionIndex } from './internal-transaction-index.js';
import { LogIndex } from './log-index.js';
import { TokenIndex } from './token-index.js';

/**
 * A stored block with its frozen transactions in index order, and token and pair events in log
 * order. Its creations and internal transactions grow once, when its traces are written.
 */
export interface BlockEntry {
  readonly block: StoredBlock;
  readonly transactions: readonly StoredTransaction[];
  readonly tokenTransfers: readonly StoredTokenTransfer[];
  readonly pairs: readonly StoredPair[];
  readonly pairSyncs: readonly StoredPairSync[];
  readonly pairSwaps: readonly StoredPairSwap[];
  readonly approvals: readonly StoredApproval[];
  /** What the block added to the chart rollups, known once it is committed. */
  rollup: BlockRollup | null;
  contracts: readonly StoredContractCreation[];
  internalTransactions: readonly StoredInternalTransaction[];
}

/** A stored transaction with its frozen logs in logIndex order. */
export interface TransactionEntry {
  readonly tx: StoredTransaction;
  readonly logs: readonly StoredLog[];
}

/**
 * The chain as the memory backend keeps it, shared by its chain roles: the writer changes it,
 * each reader reads its part. Chain records are frozen copies taken on write, so readers hand
 * them out as they are.
 */
export class ChainState {
  /** Blocks by `number - firstNumber`: writes append the cursor's child, rollbacks pop. */
  readonly blocks: BlockEntry[] = [];
  readonly blocksByHash = new Map<Hex, BlockEntry>();
  /** Each miner's blocks, oldest first. */
  readonly blocksByMiner = new Map<Hex, StoredBlock[]>();
  readonly transactions = new Map<Hex, TransactionEntry>();
  readonly addresses = new AddressIndex();
  readonly tokens = new TokenIndex();
  readonly dex = new DexIndex();
  readonly logs = new LogIndex();
  readonly internalTransactions = new InternalTransactionIndex();
  readonly approvals = new ApprovalIndex();
  readonly charts = new ChartIndex();
  /** Creations by address, oldest first: a re-created address stacks, rollbacks pop. */
  readonly contracts = new Map<Hex, StoredContractCreation[]>();
  totalTransactions = 0;
  totalContracts = 0;
  /** See `Storage.getTraceCursor`. */
  traceCursor: bigint | null = null;

  blockAt(number: bigint): BlockEntry | undefined {
    const first = this.blocks[0];
    if (!first) return undefined;
    const index = number - first.block.number;
    return index >= 0n && index < BigInt(this.blocks.length) ? this.blocks[Number(index)] : undefined;
  }
}

/** One role's object over the shared chain state. */
export abstract class ChainRole {
  constructor(protected readonly state: ChainState) {}
}
