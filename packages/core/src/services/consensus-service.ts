import type { ConsensusSource, SourceValidator } from '../consensus/consensus-source.js';
import { BlockNotFoundError } from '../errors/index.js';
import type { Storage, StoredBlock } from '../storage/index.js';
import type { BlockService } from './block-service.js';
import { confirmationsOf } from './format.js';
import type { IndexedHead } from './indexed-head.js';
import { blockTiming } from './network-stats-service.js';

/**
 * Validator record (spec: Validator). `null` wherever the configured consensus source cannot
 * tell: the generic `evm` source knows only who produced which indexed block.
 */
export interface ValidatorRecord {
  address: string;
  votingPower: string | null;
  proposerPriority: string | null;
  isActive: boolean;
  /** Percent of the window blocks due from it that it produced; `null` where the rotation is unknown. */
  uptime: number | null;
  /** Blocks it produced within `consensus.validatorWindowBlocks`. */
  totalBlocks: number;
  /** Blocks due from it within the window that another produced; `null` where the rotation is unknown. */
  missedBlocks: number | null;
  /** Staking details no supported source can read: always `null`. */
  commission: string | null;
  stakingAmount: string | null;
  delegators: number | null;
  website: string | null;
  identity: string | null;
  details: string | null;
}

/** Validator set record (spec: Validator set). */
export interface ValidatorSetRecord {
  totalValidators: number;
  activeValidators: number;
  epoch: number | null;
  validators: ValidatorRecord[];
}

/** Consensus info record (spec: Consensus info); `null` where the source cannot tell. */
export interface ConsensusInfoRecord {
  consensusAlgorithm: string | null;
  /** Mean seconds between the window's blocks, rounded; `null` with fewer than two blocks. */
  blockTime: number | null;
  epoch: number | null;
  epochBlocks: number | null;
  /** The newest indexed block. */
  currentBlock: number;
  currentValidator: string | null;
  nextValidator: string | null;
  totalStaked: string | null;
  minStake: string | null;
  slashingEnabled: boolean | null;
  governanceEnabled: boolean | null;
}

/** Finality status record (spec: Finality status). */
export interface FinalityStatusRecord {
  blockNumber: string;
  isFinalized: boolean;
  /** Indexed blocks from this one to the indexed head, itself included. */
  confirmations: number;
  /** Confirmations that make a block final now; `null` while the source cannot tell (the node's `finalized` tag still at genesis on a young chain). */
  requiredConfirmations: number | null;
  /** Unix seconds; `null` while not final and where the source cannot tell when. */
  finalizedAt: string | null;
  /** The signatures that make the block final; `null` where finality is not signed. */
  finalityProof: { signatures: string[]; validatorCount: number; votingPower: string | null } | null;
}

/** State root record (spec: State root). */
export interface StateRootRecord {
  blockNumber: string;
  stateRoot: string;
  timestamp: string;
  blockHash: string;
  parentHash: string;
}

/** Options of {@link ConsensusService}. */
export interface ConsensusServiceOptions {
  /** Newest indexed blocks validators and block time are computed over. */
  validatorWindowBlocks: number;
}

/**
 * The spec's validator set, consensus info, finality status and state root records, from the
 * configured {@link ConsensusSource} and the indexed headers. REST, JSON-RPC, GraphQL and the
 * hub's channels all call this.
 */
export class ConsensusService {
  constructor(
    private readonly storage: Storage,
    private readonly head: IndexedHead,
    private readonly blocks: BlockService,
    private readonly source: ConsensusSource,
    private readonly options: ConsensusServiceOptions,
  ) {}

  /** The validators of the newest `validatorWindowBlocks` indexed blocks (empty before indexing). */
  async validatorSet(): Promise<ValidatorSetRecord> {
    const window = await this.window();
    if (window.length === 0) return { totalValidators: 0, activeValidators: 0, epoch: null, validators: [] };
    const { epoch, validators } = await this.source.validators(window);
    return {
      totalValidators: validators.length,
      activeValidators: validators.filter((v) => v.isActive).length,
      epoch: epoch === null ? null : Number(epoch),
      validators: validators.map(formatValidator),
    };
  }

  /** Consensus state at the newest indexed block; 404 before anything is indexed. */
  async consensusInfo(): Promise<ConsensusInfoRecord> {
    const window = await this.window();
    const newest = window[0];
    if (!newest) throw new BlockNotFoundError();
    const state = await this.source.consensus(window);
    return {
      consensusAlgorithm: state.algorithm,
      blockTime: window.length < 2 ? null : Math.round(blockTiming(window).blockTime),
      epoch: numberOrNull(state.epoch),
      epochBlocks: numberOrNull(state.epochBlocks),
      currentBlock: Number(newest.number),
      currentValidator: state.currentValidator,
      nextValidator: state.nextValidator,
      totalStaked: state.totalStaked?.toString() ?? null,
      minStake: state.minStake?.toString() ?? null,
      slashingEnabled: state.slashingEnabled,
      governanceEnabled: state.governanceEnabled,
    };
  }

  /** Finality of an indexed block (`latest`: the newest); `BlockNotFoundError` beyond the indexed head. */
  async finality(tag: bigint | 'latest'): Promise<FinalityStatusRecord> {
    const cursor = await this.head.current();
    const number = tag === 'latest' ? cursor?.number : tag;
    const block = cursor && number !== undefined && number <= cursor.number ? await this.storage.getBlockByNumber(number) : null;
    if (!cursor || !block) throw new BlockNotFoundError();
    return this.finalityOf(block, cursor.number);
  }

  /** {@link finality} of a block already read, while `head` is the indexed head. */
  async finalityOf(block: StoredBlock, head: bigint): Promise<FinalityStatusRecord> {
    const finality = await this.source.finality(block, head);
    const { proof } = finality;
    return {
      blockNumber: block.number.toString(),
      isFinalized: finality.isFinalized,
      confirmations: Number(confirmationsOf(block.number, head)),
      requiredConfirmations: finality.requiredConfirmations,
      finalizedAt: finality.finalizedAt?.toString() ?? null,
      finalityProof: proof && { signatures: proof.signatures, validatorCount: proof.validatorCount, votingPower: proof.votingPower?.toString() ?? null },
    };
  }

  /** The newest final block number given the indexed `head` (transaction status uses it). */
  finalizedBlock(head: bigint | null): Promise<bigint | null> {
    return this.source.finalizedBlock(head);
  }

  /** State root of an indexed block; `latest` is the newest indexed block. */
  async stateRoot(tag: bigint | 'latest'): Promise<StateRootRecord> {
    const block = await this.blocks.resolve(tag);
    return {
      blockNumber: block.number.toString(),
      stateRoot: await this.source.stateRoot(block),
      timestamp: block.timestamp.toString(),
      blockHash: block.hash,
      parentHash: block.parentHash,
    };
  }

  private window(): Promise<StoredBlock[]> {
    return this.storage.listRecentBlocks(this.options.validatorWindowBlocks);
  }
}

function formatValidator(v: SourceValidator): ValidatorRecord {
  const due = v.expectedBlocks;
  return {
    address: v.address,
    votingPower: v.votingPower?.toString() ?? null,
    proposerPriority: v.proposerPriority?.toString() ?? null,
    isActive: v.isActive,
    uptime: due === null || due === 0 || v.missedBlocks === null ? null : Math.round(((due - v.missedBlocks) * 100_000) / due) / 1000,
    totalBlocks: v.totalBlocks,
    missedBlocks: v.missedBlocks,
    commission: null,
    stakingAmount: null,
    delegators: null,
    website: null,
    identity: null,
    details: null,
  };
}

function numberOrNull(value: bigint | null): number | null {
  return value === null ? null : Number(value);
}
