import { LRUCache } from 'lru-cache';
import type { Hex, StoredBlock } from '../storage/index.js';
import type { CometBftRpc, CometCommitSignature, CometValidator } from './cometbft-rpc.js';
import type { ConsensusSource, SourceConsensus, SourceFinality, SourceValidator } from './consensus-source.js';
import { UNKNOWN_CONSENSUS, producedBlocks } from './evm-consensus-source.js';

/** `/validators` pages of at most this many entries (CometBFT's maximum). */
const VALIDATORS_PER_PAGE = 100;
/** `/blockchain` answers at most this many headers. */
const HEADERS_PER_CALL = 20n;
/** How long the CometBFT head read for finality is reused. */
const STATUS_CACHE_MS = 1_000;

/**
 * CometBFT-based EVM chains, where an EVM block number is the CometBFT height. Validators,
 * voting power and proposer priority are the CometBFT RPC's (`/validators`); proposers come
 * from the headers (`/blockchain`). Finality is instant: a block is final once more than two
 * thirds of the voting power signed its commit (`/commit`), and those signatures are the proof.
 * Addresses are CometBFT consensus addresses (`0x` + the 20 bytes), not EVM accounts. Missed
 * proposals are not counted (the weighted rotation is not replayed), and neither stakes nor
 * epochs are visible through the CometBFT RPC.
 */
export class CometBftConsensusSource implements ConsensusSource {
  /** Validator sets and proposers by height: both are fixed once a height is committed. */
  readonly #sets = new LRUCache<bigint, Promise<CometValidator[]>>({ max: 256 });
  readonly #proposers = new LRUCache<bigint, Hex>({ max: 20_000 });
  #latest: { height: bigint; at: number } | null = null;

  constructor(private readonly rpc: CometBftRpc) {}

  async validators(window: readonly StoredBlock[]): Promise<{ epoch: bigint | null; validators: SourceValidator[] }> {
    const [set, proposers] = await Promise.all([this.validatorSet(window[0]!.number), this.proposers(window)]);
    const produced = producedBlocks(proposers);
    const current = new Set<Hex>();
    const validators: SourceValidator[] = set.map((v) => {
      const address = consensusAddress(v.address);
      current.add(address);
      return {
        address,
        votingPower: BigInt(v.voting_power),
        proposerPriority: BigInt(v.proposer_priority),
        isActive: true,
        totalBlocks: produced.get(address) ?? 0,
        expectedBlocks: null,
        missedBlocks: null,
      };
    });
    // Proposers of window blocks who have left the set since.
    for (const [address, totalBlocks] of produced) {
      if (!current.has(address)) validators.push({ address, votingPower: null, proposerPriority: null, isActive: false, totalBlocks, expectedBlocks: null, missedBlocks: null });
    }
    return { epoch: null, validators };
  }

  async consensus(window: readonly StoredBlock[]): Promise<SourceConsensus> {
    const [proposer] = await this.proposers(window.slice(0, 1));
    return { ...UNKNOWN_CONSENSUS, algorithm: 'cometbft', currentValidator: proposer ?? null };
  }

  async finality(block: StoredBlock): Promise<SourceFinality> {
    const [commit, set] = await Promise.all([this.rpc.commit(block.number), this.validatorSet(block.number)]);
    const power = new Map(set.map((v) => [v.address.toUpperCase(), BigInt(v.voting_power)]));
    const total = [...power.values()].reduce((sum, p) => sum + p, 0n);
    const signed = commit.signed_header.commit.signatures
      .filter((s): s is CometCommitSignature & { signature: string } => isCommitVote(s) && s.signature !== null)
      .sort((a, b) => epochMs(a.timestamp) - epochMs(b.timestamp));
    let committed = 0n;
    let finalizedAt: bigint | null = null;
    for (const vote of signed) {
      committed += power.get(vote.validator_address.toUpperCase()) ?? 0n;
      // Final at the vote that took the signed power past two thirds.
      if (finalizedAt === null && committed * 3n > total * 2n) finalizedAt = BigInt(Math.floor(epochMs(vote.timestamp) / 1000));
    }
    return {
      isFinalized: finalizedAt !== null,
      requiredConfirmations: 1,
      finalizedAt,
      proof: { signatures: signed.map((s) => `0x${Buffer.from(s.signature, 'base64').toString('hex')}` as Hex), validatorCount: signed.length, votingPower: committed },
    };
  }

  /** Every block the CometBFT node has committed is final: the indexed head, capped at the node's. */
  async finalizedBlock(head: bigint | null): Promise<bigint | null> {
    if (head === null) return null;
    const now = Date.now();
    if (!this.#latest || now - this.#latest.at >= STATUS_CACHE_MS) {
      const status = await this.rpc.status();
      this.#latest = { height: BigInt(status.sync_info.latest_block_height), at: now };
    }
    return head < this.#latest.height ? head : this.#latest.height;
  }

  async stateRoot(block: StoredBlock): Promise<Hex> {
    // CometBFT-based EVM nodes already serve the application hash as the header's stateRoot.
    return block.stateRoot;
  }

  /** The whole validator set at `height`, every page. */
  private validatorSet(height: bigint): Promise<CometValidator[]> {
    let set = this.#sets.get(height);
    if (!set) {
      set = this.readValidatorSet(height);
      set.catch(() => this.#sets.delete(height));
      this.#sets.set(height, set);
    }
    return set;
  }

  private async readValidatorSet(height: bigint): Promise<CometValidator[]> {
    const validators: CometValidator[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.rpc.validators(height, page, VALIDATORS_PER_PAGE);
      validators.push(...answer.validators);
      if (answer.validators.length === 0 || validators.length >= Number(answer.total)) return validators;
    }
  }

  /** The proposers of `window`'s blocks, in window order; headers are read 20 at a time. */
  private async proposers(window: readonly StoredBlock[]): Promise<Hex[]> {
    const missing = window.map((b) => b.number).filter((n) => !this.#proposers.has(n));
    const ranges: [bigint, bigint][] = [];
    for (const n of [...missing].sort((a, b) => (a < b ? 1 : -1))) {
      const last = ranges.at(-1);
      if (last && last[0] - n < HEADERS_PER_CALL) last[1] = n;
      else ranges.push([n, n]);
    }
    await Promise.all(
      ranges.map(async ([max, min]) => {
        const { block_metas } = await this.rpc.blockchain(min, max);
        for (const { header } of block_metas) this.#proposers.set(BigInt(header.height), consensusAddress(header.proposer_address));
      }),
    );
    return window.map((b) => this.#proposers.get(b.number)).filter((p): p is Hex => p !== undefined);
  }
}

function isCommitVote(vote: CometCommitSignature): boolean {
  return vote.block_id_flag === 2 || vote.block_id_flag === 'BLOCK_ID_FLAG_COMMIT';
}

function consensusAddress(address: string): Hex {
  return `0x${address.toLowerCase()}` as Hex;
}

/** RFC 3339 time (CometBFT writes nanoseconds) in Unix milliseconds. */
function epochMs(time: string): number {
  return Date.parse(time.replace(/(\.\d{1,3})\d*/, '$1'));
}
