import type { BlockBundle, Hex } from '../storage/index.js';

/** A token's pool as the analytics list it. */
export interface PoolLiquidity {
  /** The DEX (or market) the pool belongs to. */
  dex: string;
  pair: Hex;
  /** USD (10^-18) held by the pool, both sides. */
  liquidity: bigint;
}

/** The highest and lowest USD (10^-18) prices of one whole token set within a span. */
export interface PriceRange {
  high: bigint;
  low: bigint;
}

/**
 * Where token prices come from. The explorer asks; the services shape every record (`priceUSD`,
 * `marketCap`, changes, highs and lows, volume change, liquidity) from the answers. Times are
 * chain time, Unix seconds: `now` is the newest indexed block's timestamp (or the block's, for a
 * `token_price` event). Prices and amounts are bigints of 10^-18 USD, `null` wherever the
 * source does not know, never a guess. Token addresses are lowercase both ways, as storage keeps
 * them. A token the source does not price answers `null` to `volume` and `pools`, and all its
 * price fields are `null`. Built in: the chain's own
 * Uniswap-V2 pairs (the `prices` option); any other source is passed as `priceSource`.
 *
 * @example
 * ```ts
 * // Prices from a feed of your own (an oracle, a market data API) instead of on-chain pairs.
 * const priceSource: PriceSource = {
 *   pricedTokens: () => feed.tokens(),
 *   price: (token, now) => feed.priceAt(token, now),
 *   priceAt: (token, at) => feed.priceAt(token, at),
 *   priceRange: (token, from, to) => feed.range(token, from, to),
 *   volume: (token, from, to) => feed.volume(token, from, to),
 *   pools: async (token) => ((await feed.tokens()).includes(token) ? [] : null),
 * };
 * const explorer = await createExplorer({ rpcUrl, storage: memoryStorage(), priceSource });
 * ```
 */
export interface PriceSource {
  /** Every token the source can price; the token list ranks them by market cap or volume first. */
  pricedTokens(): Promise<Hex[]>;
  /** USD of one whole token as of `now`. */
  price(token: Hex, now: bigint): Promise<bigint | null>;
  /** The price standing at past time `at` (the last one set at or before it): what changes compare with. */
  priceAt(token: Hex, at: bigint): Promise<bigint | null>;
  /**
   * {@link priceAt} of many past times at once (a price chart's points), in input order.
   * Optional: without it each time is asked of `priceAt`.
   */
  priceHistory?(token: Hex, times: readonly bigint[]): Promise<(bigint | null)[]>;
  /** The highest and lowest prices set within (`from`, `to`]; `null` when none was. */
  priceRange(token: Hex, from: bigint, to: bigint): Promise<PriceRange | null>;
  /** USD value traded within (`from`, `to`] (0 when nothing was); `null` for a token the source does not price. */
  volume(token: Hex, from: bigint, to: bigint): Promise<bigint | null>;
  /** The token's pools as of `now` with their liquidity (none when it has none); `null` for a token the source does not price. */
  pools(token: Hex, now: bigint): Promise<PoolLiquidity[] | null>;
  /**
   * The tokens whose price a newly written block moved, for `token_price` events. Optional: a
   * source without it publishes none.
   */
  tokensMovedBy?(block: BlockBundle): Promise<Hex[]>;
  /**
   * The token that stands for the chain's native coin (its wrapped form, 1:1, such as WETH):
   * its price is the coin's (Etherscan's `stats/ethprice`). Optional: without it the coin has
   * no price.
   */
  readonly nativeToken?: Hex;
}

const REQUIRED_METHODS = ['pricedTokens', 'price', 'priceAt', 'priceRange', 'volume', 'pools'] as const;

/** Whether `value` has the methods of a {@link PriceSource} (checked once, by the config). */
export function isPriceSource(value: unknown): value is PriceSource {
  if (typeof value !== 'object' || value === null) return false;
  const methods = value as Record<string, unknown>;
  const nativeToken = methods.nativeToken;
  return (
    REQUIRED_METHODS.every((name) => typeof methods[name] === 'function') &&
    ['undefined', 'function'].includes(typeof methods.tokensMovedBy) &&
    ['undefined', 'function'].includes(typeof methods.priceHistory) &&
    (nativeToken === undefined || (typeof nativeToken === 'string' && /^0x[0-9a-f]{40}$/.test(nativeToken)))
  );
}
