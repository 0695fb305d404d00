import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import type { RpcBlock } from '../chain/rpc-types.js';

/** Options of {@link EvmFinality}. */
export interface EvmFinalityOptions {
  /** Confirmations that make a block final where the node has no `finalized` tag. */
  requiredConfirmations: number;
  /** How long a read of the `finalized` tag is reused. */
  cacheMs: number;
}

/**
 * Finality on a generic EVM node: the node's `finalized` block tag where it has one, else
 * `requiredConfirmations` below the head. Which rule applies is learned on the first call.
 */
export class EvmFinality {
  private mode: 'unknown' | 'tag' | 'confirmations' = 'unknown';
  private cached: { number: bigint | null; at: number } | null = null;

  constructor(
    private readonly chain: ChainClient,
    private readonly options: EvmFinalityOptions,
  ) {}

  /** How finality is decided on this chain. */
  get rule(): 'tag' | 'confirmations' | 'unknown' {
    return this.mode;
  }

  /**
   * The newest final block number given the indexed `head`, or `null` when nothing is final
   * yet. Upstream failures propagate (callers decide how to degrade).
   */
  async finalizedBlock(head: bigint | null): Promise<bigint | null> {
    if (this.mode !== 'confirmations') {
      const now = Date.now();
      if (this.cached && now - this.cached.at < this.options.cacheMs) return this.cached.number;
      try {
        const block = await this.chain.request<RpcBlock<string> | null>('eth_getBlockByNumber', ['finalized', false]);
        this.mode = 'tag';
        const number = block ? BigInt(block.number) : null;
        this.cached = { number, at: now };
        return number;
      } catch (error) {
        if (!(error instanceof NodeRpcError) || this.mode === 'tag') throw error;
        this.mode = 'confirmations';
      }
    }
    if (head === null) return null;
    const final = head - BigInt(this.options.requiredConfirmations) + 1n;
    return final >= 0n ? final : null;
  }
}
