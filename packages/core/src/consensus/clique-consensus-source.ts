import { LRUCache } from 'lru-cache';
import type { ChainClient } from '../chain/chain-client.js';
import { BlockNotFoundError } from '../errors/index.js';
import type { Hex, StoredBlock } from '../storage/index.js';
import { cliqueSeal, recoverCliqueSigner, type CliqueHeader } from './clique-seal.js';
import type { ConsensusSource, SourceConsensus, SourceFinality, SourceValidator } from './consensus-source.js';
import { UNKNOWN_CONSENSUS, producedBlocks, type EvmConsensusSource } from './evm-consensus-source.js';

/** Options of {@link CliqueConsensusSource}. */
export interface CliqueConsensusSourceOptions {
  /** The chain's clique `epoch` in blocks, where configured. */
  epochBlocks?: number;
}

/**
 * Geth-style proof-of-authority. The authorized signers come from `clique_getSigners`; who sealed
 * a block is recovered from the seal at the end of its `extraData`. Clique's rotation is known
 * (block `n` is due from the `n mod signers`-th signer in ascending order), so missed turns are
 * counted. Finality is by depth or the node's `finalized` tag, as on any EVM node; the block's
 * seal is its proof. Stakes do not exist in clique; there is no slashing.
 */
export class CliqueConsensusSource implements ConsensusSource {
  /** Sealers by block hash: a header never changes, so each is recovered once. */
  readonly #sealers = new LRUCache<Hex, Promise<{ signer: Hex; seal: Hex }>>({ max: 20_000 });

  constructor(
    private readonly chain: ChainClient,
    /** Finality by depth or tag, and state roots, as on any EVM node. */
    private readonly evm: EvmConsensusSource,
    private readonly options: CliqueConsensusSourceOptions = {},
  ) {}

  async validators(window: readonly StoredBlock[]): Promise<{ epoch: bigint | null; validators: SourceValidator[] }> {
    const [signers, sealers] = await Promise.all([this.signers(window[0]!.number), Promise.all(window.map((b) => this.sealer(b)))]);
    const produced = producedBlocks(sealers.map((s) => s.signer));
    const turnsOf = new Map<Hex, { expected: number; missed: number }>(signers.map((s) => [s, { expected: 0, missed: 0 }]));
    window.forEach((block, i) => {
      const due = inTurn(signers, block.number);
      if (due === null) return;
      const turns = turnsOf.get(due)!;
      turns.expected++;
      if (sealers[i]!.signer !== due) turns.missed++;
    });
    const active: SourceValidator[] = signers.map((address) => ({
      address,
      votingPower: null,
      proposerPriority: null,
      isActive: true,
      totalBlocks: produced.get(address) ?? 0,
      expectedBlocks: turnsOf.get(address)!.expected,
      missedBlocks: turnsOf.get(address)!.missed,
    }));
    // Sealers of window blocks who have since been voted out.
    const former: SourceValidator[] = [...produced]
      .filter(([address]) => !turnsOf.has(address))
      .map(([address, totalBlocks]) => ({ address, votingPower: null, proposerPriority: null, isActive: false, totalBlocks, expectedBlocks: null, missedBlocks: null }));
    return { epoch: this.epochOf(window[0]!.number), validators: [...active, ...former] };
  }

  async consensus(window: readonly StoredBlock[]): Promise<SourceConsensus> {
    const newest = window[0]!;
    const [signers, sealer] = await Promise.all([this.signers(newest.number), this.sealer(newest)]);
    const { epochBlocks } = this.options;
    return {
      ...UNKNOWN_CONSENSUS,
      algorithm: 'clique',
      epoch: this.epochOf(newest.number),
      epochBlocks: epochBlocks === undefined ? null : BigInt(epochBlocks),
      currentValidator: sealer.signer,
      nextValidator: inTurn(signers, newest.number + 1n),
      slashingEnabled: false,
    };
  }

  async finality(block: StoredBlock, head: bigint): Promise<SourceFinality> {
    const [finality, { seal }] = await Promise.all([this.evm.finality(block, head), this.sealer(block)]);
    return { ...finality, proof: { signatures: [seal], validatorCount: 1, votingPower: null } };
  }

  finalizedBlock(head: bigint | null): Promise<bigint | null> {
    return this.evm.finalizedBlock(head);
  }

  stateRoot(block: StoredBlock): Promise<Hex> {
    return this.evm.stateRoot(block);
  }

  /** The authorized signers at `blockNumber`, ascending (clique's turn order). */
  private async signers(blockNumber: bigint): Promise<Hex[]> {
    const signers = await this.chain.request<string[]>('clique_getSigners', [`0x${blockNumber.toString(16)}`]);
    return signers.map((s) => s.toLowerCase() as Hex).sort();
  }

  private sealer(block: StoredBlock): Promise<{ signer: Hex; seal: Hex }> {
    let sealer = this.#sealers.get(block.hash);
    if (!sealer) {
      sealer = this.recover(block.hash);
      // A failed read is not remembered: the next request asks the node again.
      sealer.catch(() => this.#sealers.delete(block.hash));
      this.#sealers.set(block.hash, sealer);
    }
    return sealer;
  }

  private async recover(hash: Hex): Promise<{ signer: Hex; seal: Hex }> {
    const header = await this.chain.request<CliqueHeader | null>('eth_getBlockByHash', [hash, false]);
    if (!header) throw new BlockNotFoundError();
    return { signer: await recoverCliqueSigner(header), seal: cliqueSeal(header) };
  }

  private epochOf(blockNumber: bigint): bigint | null {
    const { epochBlocks } = this.options;
    return epochBlocks === undefined ? null : blockNumber / BigInt(epochBlocks);
  }
}

/** The signer whose turn block `blockNumber` is; `null` without signers. */
function inTurn(signers: readonly Hex[], blockNumber: bigint): Hex | null {
  return signers.length === 0 ? null : signers[Number(blockNumber % BigInt(signers.length))]!;
}
