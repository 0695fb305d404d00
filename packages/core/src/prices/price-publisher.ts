import type { Logger } from 'pino';
import type { EventHub } from '../channels/index.js';
import type { Hex } from '../storage/index.js';
import type { PriceService } from '../services/price-service.js';
import { formatUsd } from './usd.js';

/** The newest block that synced a pair. */
interface Moved {
  timestamp: bigint;
  blockNumber: bigint;
}

/**
 * Publishes `tokenPrice` on the hub when a written block syncs a token's pool. Blocks are noted
 * as they come (per pair, the newest wins); one worker then reads the moved tokens' prices back
 * from storage at that block's time, round after round. A catching-up indexer so never queues
 * unbounded work, and a token's events stay in block order. Nothing is computed while nobody
 * listens to `tokenPrice`.
 */
export class PricePublisher {
  #moved = new Map<Hex, Moved>();
  #working = false;
  #stopped = false;

  constructor(
    private readonly prices: PriceService,
    private readonly hub: EventHub,
    private readonly logger: Logger,
  ) {
    hub.on('block', ({ block, pairSyncs }) => {
      if (this.#stopped || !prices.enabled || pairSyncs.length === 0 || !this.#listened()) return;
      for (const sync of pairSyncs) this.#moved.set(sync.pair, { timestamp: block.timestamp, blockNumber: block.number });
      if (!this.#working) void this.#drain();
    });
  }

  /** Stops publishing; an update being computed is dropped. */
  stop(): void {
    this.#stopped = true;
    this.#moved.clear();
  }

  #listened(): boolean {
    return (this.hub.all.get('tokenPrice')?.length ?? 0) > 0;
  }

  async #drain(): Promise<void> {
    this.#working = true;
    try {
      while (this.#moved.size > 0 && !this.#stopped) {
        const moved = this.#moved;
        this.#moved = new Map();
        await this.#publish(moved);
      }
    } finally {
      this.#working = false;
    }
  }

  async #publish(moved: ReadonlyMap<Hex, Moved>): Promise<void> {
    try {
      const updates = new Map<Hex, Moved>();
      for (const [pair, token] of await this.prices.tokensPricedBy(moved.keys())) {
        const at = moved.get(pair)!;
        const known = updates.get(token);
        if (!known || at.blockNumber > known.blockNumber) updates.set(token, at);
      }
      for (const [token, { timestamp, blockNumber }] of updates) {
        const market = await this.prices.market(token, timestamp);
        if (this.#stopped || market?.price == null) continue;
        this.hub.emit('tokenPrice', { address: token, priceUSD: formatUsd(market.price), change24h: market.change24h, timestamp, blockNumber });
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'token prices could not be read; their token_price events are skipped');
    }
  }
}
