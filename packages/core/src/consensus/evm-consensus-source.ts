import type { BlockReader, Hex, StoredBlock } from '../storage/index.js';
import type { ConsensusSource, SourceConsensus, SourceFinality, SourceValidator } from './consensus-source.js';
import type { EvmFinality } from './evm-finality.js';

/**
 * The consensus source of any EVM node. Validators are the block producers (`miner`) of the
 * window's headers; the producer rotation, stakes, epochs and the algorithm itself are not
 * visible to an EVM node, so those are `null`. Finality is the node's `finalized` tag where it
 * has one, else `requiredConfirmations` of depth; neither is signed, so there is no proof.
 */
export class EvmConsensusSource implements ConsensusSource {
  constructor(
    private readonly storage: BlockReader,
    private readonly finalityRule: EvmFinality,
    private readonly requiredConfirmations: number,
  ) {}

  async validators(window: readonly StoredBlock[]): Promise<{ epoch: bigint | null; validators: SourceValidator[] }> {
    const validators = [...producedBlocks(window.map((block) => block.miner))].map(([address, totalBlocks]) => ({
      address,
      votingPower: null,
      proposerPriority: null,
      isActive: true,
      totalBlocks,
      expectedBlocks: null,
      missedBlocks: null,
    }));
    return { epoch: null, validators };
  }

  async consensus(window: readonly StoredBlock[]): Promise<SourceConsensus> {
    return { ...UNKNOWN_CONSENSUS, currentValidator: window[0]?.miner ?? null };
  }

  async finality(block: StoredBlock, head: bigint): Promise<SourceFinality> {
    const finalized = await this.finalityRule.finalizedBlock(head);
    const isFinalized = finalized !== null && block.number <= finalized;
    if (this.finalityRule.rule === 'tag') {
      // The node tells which blocks are final, not when they became so. Its finalized block's depth
      // is the confirmations a block needs, once that block has left genesis: on a chain younger
      // than the depth the node finalizes at, genesis is final at any depth, so the depth is unknown.
      const young = finalized === null || (finalized === 0n && head > 0n);
      return { isFinalized, requiredConfirmations: young ? null : Number(head - finalized + 1n), finalizedAt: null, proof: null };
    }
    // By depth: the block that gave it its last required confirmation made it final.
    const finalizing = isFinalized ? await this.storage.getBlockByNumber(block.number + BigInt(this.requiredConfirmations) - 1n) : null;
    return { isFinalized, requiredConfirmations: this.requiredConfirmations, finalizedAt: finalizing?.timestamp ?? null, proof: null };
  }

  finalizedBlock(head: bigint | null): Promise<bigint | null> {
    return this.finalityRule.finalizedBlock(head);
  }

  async stateRoot(block: StoredBlock): Promise<Hex> {
    return block.stateRoot;
  }
}

/** What a source that knows nothing of the consensus beyond headers reports. */
export const UNKNOWN_CONSENSUS: SourceConsensus = {
  algorithm: null,
  epoch: null,
  epochBlocks: null,
  currentValidator: null,
  nextValidator: null,
  totalStaked: null,
  minStake: null,
  slashingEnabled: null,
  governanceEnabled: null,
};

/** Blocks per producer, in order of each producer's newest block. */
export function producedBlocks(producers: readonly Hex[]): Map<Hex, number> {
  const counts = new Map<Hex, number>();
  for (const producer of producers) counts.set(producer, (counts.get(producer) ?? 0) + 1);
  return counts;
}
