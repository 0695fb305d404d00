/*
 * The consensus records the API answers and the hub carries (`validators`, `consensus`,
 * `finality` events): beside the sources, below the event hub, so both services and events use them.
 */

/**
 * Validator record (spec: Validator). `null` wherever the configured consensus source cannot
 * tell: the generic `evm` source knows only who produced which indexed block.
 */
export interface ValidatorRecord {
  address: string;
  /** The validator's public label, `null` without one. */
  label: string | null;
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
