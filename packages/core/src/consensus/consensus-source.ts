import type { Hex, StoredBlock } from '../storage/index.js';

/**
 * One validator as a consensus source sees it. `null` marks what the source cannot tell; the
 * consensus service turns these into the spec's Validator records.
 */
export interface SourceValidator {
  address: Hex;
  votingPower: bigint | null;
  proposerPriority: bigint | null;
  isActive: boolean;
  /** Blocks it produced within the window. */
  totalBlocks: number;
  /** Window blocks in which it was due to produce (its turn); `null` where the rotation is unknown. */
  expectedBlocks: number | null;
  /** Of those, the ones another producer made instead; `null` where the rotation is unknown. */
  missedBlocks: number | null;
}

/** The consensus state a source can tell beyond the indexed headers. */
export interface SourceConsensus {
  /** e.g. `clique`, `cometbft`; `null` where the source cannot tell. */
  algorithm: string | null;
  epoch: bigint | null;
  epochBlocks: bigint | null;
  /** Producer of the newest window block. */
  currentValidator: Hex | null;
  /** Producer due next; `null` where the rotation is unknown. */
  nextValidator: Hex | null;
  totalStaked: bigint | null;
  minStake: bigint | null;
  slashingEnabled: boolean | null;
  governanceEnabled: boolean | null;
}

/** Whether one block is final, and what proves it. */
export interface SourceFinality {
  isFinalized: boolean;
  /** Confirmations a block needs to be final now; `null` while the source cannot tell. */
  requiredConfirmations: number | null;
  /** Unix seconds at which the block became final; `null` while not final or where unknown. */
  finalizedAt: bigint | null;
  /** Signatures that make it final; `null` where finality is not signed (depth or the node's tag). */
  proof: { signatures: Hex[]; validatorCount: number; votingPower: bigint | null } | null;
}

/**
 * Where validators, consensus state, finality and state roots come from: the `consensus.type`
 * of the config. Every method takes indexed headers (newest first) so a source reads the node
 * only for what headers do not hold. Upstream failures propagate as `UpstreamUnavailableError`.
 */
export interface ConsensusSource {
  /** The validators, given the window of indexed headers (newest first, never empty). */
  validators(window: readonly StoredBlock[]): Promise<{ epoch: bigint | null; validators: SourceValidator[] }>;
  /** Consensus state at the newest window header (`window` newest first, never empty). */
  consensus(window: readonly StoredBlock[]): Promise<SourceConsensus>;
  /** Finality of indexed `block` while `head` is the newest indexed block. */
  finality(block: StoredBlock, head: bigint): Promise<SourceFinality>;
  /** The newest final block number given the indexed `head`; `null` when none is final yet. */
  finalizedBlock(head: bigint | null): Promise<bigint | null>;
  /** The state root after `block`. */
  stateRoot(block: StoredBlock): Promise<Hex>;
}
