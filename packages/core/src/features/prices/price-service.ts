import type { IndexedHead } from '../../events/indexed-head.js';
import type { PriceSource } from '../../prices/price-source.js';
import type { BlockBundle, BlockReader, Hex } from '../../storage/index.js';
import type { DecimalsOf } from '../../tokens/token-decimals.js';
import { percentOf, type TokenMarket, type TokenPrices } from '../../services/index.js';

const DAY_SECONDS = 86_400n;

/** The native coin's price as {@link PriceService.nativePrice} tells it. */
export interface NativePrice {
  /** USD of one whole coin, 10^-18 USD. */
  usd: bigint;
  /** The chain time it stands at: the newest indexed block's timestamp, Unix seconds. */
  timestamp: bigint;
}

/**
 * A token's market from the configured price source (see `prices` and `priceSource` in the
 * config), over 24 h and 7 d of chain time: prices move with the chain, not the wall clock.
 * Without a source every answer is `null`.
 *
 * @example
 * ```ts
 * const market = await explorer.services.prices.market('0x…token');
 * if (market?.price != null) console.log(formatUnits(market.price, 18), 'USD', market.change24h, '% in 24 h');
 * ```
 */
export class PriceService implements TokenPrices {
  constructor(
    private readonly source: PriceSource | null,
    private readonly storage: BlockReader,
    private readonly head: IndexedHead,
    private readonly decimalsOf: DecimalsOf,
  ) {}

  /** Whether a price source is configured. */
  get enabled(): boolean {
    return this.source !== null;
  }

  /** Whether the source tells which tokens a block moved, so `token_price` events can be published. */
  get followsBlocks(): boolean {
    return typeof this.source?.tokensMovedBy === 'function';
  }

  /** The token standing for the native coin in the source's prices (see `PriceSource.nativeToken`), or `null`. */
  get nativeToken(): Hex | null {
    return this.source?.nativeToken ?? null;
  }

  /**
   * USD (10^-18) of one native coin: the price of its {@link nativeToken} at the newest indexed
   * block's time, with that time (Unix seconds); `null` without a native token or a price for it.
   */
  async nativePrice(): Promise<NativePrice | null> {
    const token = this.nativeToken;
    if (!this.source || token === null) return null;
    const time = await this.#chainTime();
    const usd = time === null ? null : await this.source.price(token, time);
    return usd === null ? null : { usd, timestamp: time! };
  }

  /** Every token the source can price. */
  async pricedTokens(): Promise<Hex[]> {
    return this.source ? this.source.pricedTokens() : [];
  }

  /** The tokens whose price a written block moved. */
  async tokensMovedBy(block: BlockBundle): Promise<Hex[]> {
    return (await this.source?.tokensMovedBy?.(block)) ?? [];
  }

  /** The price standing at each of `times` (chain time), in input order; every one `null` without a source. */
  async history(token: Hex, times: readonly bigint[]): Promise<(bigint | null)[]> {
    const source = this.source;
    if (!source) return times.map(() => null);
    return source.priceHistory ? source.priceHistory(token, times) : Promise.all(times.map((at) => source.priceAt(token, at)));
  }

  /**
   * The token's market at chain time `now` (default: the newest indexed block's time), or `null`
   * when no source is configured, the source does not price the token (`null` pools or volume),
   * or its decimals are unknown.
   */
  async market(token: Hex, now?: bigint): Promise<TokenMarket | null> {
    const source = this.source;
    if (!source) return null;
    const time = now ?? (await this.#chainTime());
    if (time === null) return null;
    // Most tokens have no price: their pools say so before anything else is asked.
    const [pools, decimals] = await Promise.all([source.pools(token, time), this.decimalsOf(token)]);
    if (pools === null || decimals === null) return null;
    const dayAgo = time - DAY_SECONDS;
    const [price, dayAgoPrice, weekAgoPrice, range, volume24h, previousVolume] = await Promise.all([
      source.price(token, time),
      source.priceAt(token, dayAgo),
      source.priceAt(token, time - 7n * DAY_SECONDS),
      source.priceRange(token, dayAgo, time),
      source.volume(token, dayAgo, time),
      source.volume(token, dayAgo - DAY_SECONDS, dayAgo),
    ]);
    if (volume24h === null) return null;
    // High and low need the day's history: a price set within it or one standing at its start.
    const history = [range?.high, range?.low, dayAgoPrice].filter((value) => value != null);
    const span = price === null || history.length === 0 ? [] : [price, ...history];
    return {
      token,
      decimals,
      price,
      change24h: change(price, dayAgoPrice),
      change7d: change(price, weekAgoPrice),
      high24h: span.length === 0 ? null : span.reduce((a, b) => (b > a ? b : a)),
      low24h: span.length === 0 ? null : span.reduce((a, b) => (b < a ? b : a)),
      volume24h,
      volumeChange24h: change(volume24h, previousVolume),
      pools,
      totalLiquidity: pools.reduce((sum, pool) => sum + pool.liquidity, 0n),
    };
  }

  /** The newest indexed block's timestamp. */
  async #chainTime(): Promise<bigint | null> {
    const cursor = await this.head.current();
    return cursor && ((await this.storage.getBlockByNumber(cursor.number))?.timestamp ?? null);
  }
}

/** Percent change from `before` to `now`; `null` without both, or from zero. */
function change(now: bigint | null, before: bigint | null): string | null {
  return now === null || before === null || before === 0n ? null : percentOf(now - before, before);
}
