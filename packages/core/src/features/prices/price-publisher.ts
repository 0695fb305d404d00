import type { Logger } from 'pino';
import type { EventHub } from '../../events/index.js';
import { formatUsd } from '../../prices/usd.js';
import type { BlockBundle, Hex } from '../../storage/index.js';
import type { PriceService } from './price-service.js';

/** The newest block that moved a token's price. */
interface Moved {
  timestamp: bigint;
  blockNumber: bigint;
  blockHash: Hex;
}

/**
 * Publishes `tokenPrice` on the hub when a written block moves a token's price, as the price
 * source tells (a source that cannot tell publishes nothing). Blocks wait as they come; one
 * worker then takes all that wait, asks which tokens they moved (per token the latest written
 * block wins) and reads those tokens' prices at that block's time, round after round. A
 * catching-up indexer so never queues more than a round's blocks, and a token's events stay in
 * block order. Nothing is computed while nobody listens to `tokenPrice`.
 */
export class PricePublisher {
  #blocks: BlockBundle[] = [];
  #working = false;
  #stopped = false;

  constructor(
    private readonly prices: PriceService,
    private readonly hub: EventHub,
    private readonly logger: Logger,
  ) {
    hub.on('block', (block) => {
      if (this.#stopped || !prices.followsBlocks || !this.#listened()) return;
      this.#blocks.push(block);
      if (!this.#working) void this.#drain();
    });
  }

  /** Stops publishing; an update being computed is dropped. */
  stop(): void {
    this.#stopped = true;
    this.#blocks = [];
  }

  #listened(): boolean {
    return (this.hub.all.get('tokenPrice')?.length ?? 0) > 0;
  }

  async #drain(): Promise<void> {
    this.#working = true;
    try {
      while (this.#blocks.length > 0 && !this.#stopped) {
        const blocks = this.#blocks;
        this.#blocks = [];
        await this.#publish(blocks);
      }
    } finally {
      this.#working = false;
    }
  }

  async #publish(blocks: readonly BlockBundle[]): Promise<void> {
    try {
      const updates = new Map<Hex, Moved>();
      for (const bundle of blocks) {
        for (const token of await this.prices.tokensMovedBy(bundle)) updates.set(token, { timestamp: bundle.block.timestamp, blockNumber: bundle.block.number, blockHash: bundle.block.hash });
      }
      for (const [token, { timestamp, blockNumber, blockHash }] of updates) {
        const market = await this.prices.market(token, timestamp);
        if (this.#stopped || market?.price == null) continue;
        this.hub.emit('tokenPrice', { address: token, priceUSD: formatUsd(market.price), change24h: market.change24h, timestamp, blockNumber, blockHash });
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'token prices could not be read; their token_price events are skipped');
    }
  }
}
