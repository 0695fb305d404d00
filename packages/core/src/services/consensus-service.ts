import type { ConsensusInfoRecord, FinalityStatusRecord, ValidatorRecord, ValidatorSetRecord } from '../consensus/consensus-records.js';
import type { ConsensusSource, SourceValidator } from '../consensus/consensus-source.js';
import { BlockNotFoundError } from '../errors/index.js';
import type { IndexedHead } from '../events/indexed-head.js';
import type { BlockReader, StoredBlock } from '../storage/index.js';
import type { BlockService } from './block-service.js';
import { confirmationsOf } from './format.js';
import { labelOf, type AddressLabels, type LabelLookup } from './address-labels.js';
import { blockTiming } from './network-stats-service.js';
import type { z } from 'zod';
import type { stateRootRecordSchema } from '../records/record-schemas.js';

/** State root record (spec: State root). */
export type StateRootRecord = z.infer<typeof stateRootRecordSchema>;

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
    private readonly storage: BlockReader,
    private readonly head: IndexedHead,
    private readonly blocks: BlockService,
    private readonly labels: LabelLookup,
    private readonly source: ConsensusSource,
    private readonly options: ConsensusServiceOptions,
  ) {}

  /** The validators of the newest `validatorWindowBlocks` indexed blocks (empty before indexing). */
  async validatorSet(): Promise<ValidatorSetRecord> {
    const window = await this.window();
    if (window.length === 0) return { totalValidators: 0, activeValidators: 0, epoch: null, validators: [] };
    const { epoch, validators } = await this.source.validators(window);
    const labels = await this.labels.labelsOf(validators.map((v) => v.address));
    return {
      totalValidators: validators.length,
      activeValidators: validators.filter((v) => v.isActive).length,
      epoch: epoch === null ? null : Number(epoch),
      validators: validators.map((v) => formatValidator(v, labels)),
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

function formatValidator(v: SourceValidator, labels: AddressLabels): ValidatorRecord {
  const due = v.expectedBlocks;
  return {
    address: v.address,
    label: labelOf(labels, v.address),
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
