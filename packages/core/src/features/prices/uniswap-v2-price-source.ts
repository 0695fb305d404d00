import { parseUnits } from 'viem';
import type { BlockBundle, Hex, PairReader, StoredPair, StoredPairSync } from '../../storage/index.js';
import type { DecimalsOf } from '../../tokens/token-decimals.js';
import type { PoolLiquidity, PriceRange, PriceSource } from '../../prices/price-source.js';
import { type PricedSide, priceAtSync, quoteReserve, quoteToUsd, USD_DECIMALS } from '../../prices/usd.js';

/** The pairs prices come from: the explorer's `prices` option. */
export interface UniswapV2PriceOptions {
  /** The token prices are quoted in. */
  quoteToken: Hex;
  /** USD value of one whole quote token, a decimal string. */
  quoteTokenUsd: string;
  /** Factories whose pairs count, with the DEX name pools show. */
  dexes: { name: string; factory: Hex }[];
  /** The wrapped native coin, whose price is the coin's. */
  nativeToken?: Hex | undefined;
}

/** A pair of a configured DEX between a token and the quote token, seen from the token's side. */
interface QuotePool {
  dex: string;
  pair: Hex;
  side: PricedSide;
}

/**
 * Prices from Uniswap-V2-compatible pairs on the chain itself, read from storage: pairs of the
 * configured factories against the quote token, their `Sync` reserves as price history and
 * their `Swap` amounts as volume. At any moment the pool with the largest quote reserve sets a
 * token's price. The quote token is worth its configured value and has no price history.
 */
export class UniswapV2PriceSource implements PriceSource {
  readonly #quote: Hex;
  readonly #quoteUsd: bigint;
  readonly #dexByFactory: ReadonlyMap<Hex, string>;
  readonly nativeToken: Hex | undefined;

  constructor(
    private readonly storage: PairReader,
    private readonly decimalsOf: DecimalsOf,
    config: UniswapV2PriceOptions,
  ) {
    this.#quote = config.quoteToken;
    this.#quoteUsd = parseUnits(config.quoteTokenUsd, USD_DECIMALS);
    this.#dexByFactory = new Map(config.dexes.map((dex) => [dex.factory, dex.name]));
    this.nativeToken = config.nativeToken;
  }

  /** The quote token and every token with a pool against it. */
  async pricedTokens(): Promise<Hex[]> {
    const quote = this.#quote;
    const pairs = (await this.storage.listTokenPairs(quote)).filter((pair) => this.#counts(pair));
    return [...new Set([quote, ...pairs.map((pair) => (pair.token0 === quote ? pair.token1 : pair.token0))])];
  }

  async price(token: Hex, now: bigint): Promise<bigint | null> {
    if (token !== this.#quote) return this.#priceAt(token, now);
    // Without its decimals nothing is priced against it, itself included.
    return (await this.#pools(token)) === null ? null : this.#quoteUsd;
  }

  async priceAt(token: Hex, at: bigint): Promise<bigint | null> {
    return token === this.#quote ? null : this.#priceAt(token, at);
  }

  /** Each time's price as {@link priceAt} tells it: each pool's syncs at every time read in one storage call. */
  async priceHistory(token: Hex, times: readonly bigint[]): Promise<(bigint | null)[]> {
    const pools = token === this.#quote ? null : await this.#pools(token);
    if (!pools || times.length === 0) return times.map(() => null);
    const syncs = await Promise.all(pools.map((pool) => this.storage.getPairSyncsAt(pool.pair, [...times])));
    return times.map((_, t) => {
      const main = this.#largest(pools.map((pool, i) => ({ pool, sync: syncs[i]![t] ?? null })));
      return main && priceAtSync(main.sync, main.pool.side);
    });
  }

  /** Extremes of the pool setting the price at `to`: that pool's history is the price's. */
  async priceRange(token: Hex, from: bigint, to: bigint): Promise<PriceRange | null> {
    if (token === this.#quote) return null;
    const main = await this.#mainPool(token, to);
    const extremes = main && (await this.storage.getPairSyncExtremes(main.pool.pair, from, to));
    if (!main || !extremes) return null;
    // The highest reserve1/reserve0 is token0's highest price but token1's lowest: price both.
    const prices = [extremes.highest, extremes.lowest].map((sync) => priceAtSync(sync, main.pool.side)).filter((price) => price !== null);
    if (prices.length === 0) return null;
    return { high: prices.reduce((a, b) => (b > a ? b : a)), low: prices.reduce((a, b) => (b < a ? b : a)) };
  }

  /** The quote side of every swap on the token's pools. */
  async volume(token: Hex, from: bigint, to: bigint): Promise<bigint | null> {
    const pools = await this.#pools(token);
    if (!pools) return null;
    const sums = await Promise.all(pools.map((pool) => this.storage.sumPairSwaps(pool.pair, from, to)));
    return sums.reduce((total, sum, i) => {
      const side = pools[i]!.side;
      const traded = side.tokenIsToken0 ? sum.amount1In + sum.amount1Out : sum.amount0In + sum.amount0Out;
      return total + quoteToUsd(traded, side);
    }, 0n);
  }

  /** Each pool's liquidity: twice its quote reserve's value, as a balanced pool holds. */
  async pools(token: Hex, now: bigint): Promise<PoolLiquidity[] | null> {
    const pools = await this.#pools(token);
    if (!pools) return null;
    const syncs = await Promise.all(pools.map((pool) => this.storage.getPairSyncAt(pool.pair, now)));
    return pools.map((pool, i) => ({ dex: pool.dex, pair: pool.pair, liquidity: 2n * quoteToUsd(syncs[i] ? quoteReserve(syncs[i], pool.side) : 0n, pool.side) }));
  }

  /** The tokens of the block's synced pools (the quote token's price never moves). */
  async tokensMovedBy(block: BlockBundle): Promise<Hex[]> {
    if (block.pairSyncs.length === 0) return [];
    const quote = this.#quote;
    const synced = new Set(block.pairSyncs.map((sync) => sync.pair));
    const moved = (await this.storage.listTokenPairs(quote)).filter((pair) => this.#counts(pair) && synced.has(pair.address) && pair.token0 !== pair.token1);
    return [...new Set(moved.map((pair) => (pair.token0 === quote ? pair.token1 : pair.token0)))];
  }

  async #priceAt(token: Hex, at: bigint): Promise<bigint | null> {
    const main = await this.#mainPool(token, at);
    return main && priceAtSync(main.sync, main.pool.side);
  }

  /** The pool setting the price at `at`: of those with both reserves, the largest quote reserve. */
  async #mainPool(token: Hex, at: bigint): Promise<{ pool: QuotePool; sync: StoredPairSync } | null> {
    const pools = await this.#pools(token);
    if (!pools) return null;
    const syncs = await Promise.all(pools.map((pool) => this.storage.getPairSyncAt(pool.pair, at)));
    return this.#largest(pools.map((pool, i) => ({ pool, sync: syncs[i] ?? null })));
  }

  /** Of the pools with a priced sync, the one with the largest quote reserve (the first of a tie). */
  #largest(candidates: { pool: QuotePool; sync: StoredPairSync | null }[]): { pool: QuotePool; sync: StoredPairSync } | null {
    let main: { pool: QuotePool; sync: StoredPairSync } | null = null;
    for (const { pool, sync } of candidates) {
      if (sync && priceAtSync(sync, pool.side) !== null && (!main || quoteReserve(sync, pool.side) > quoteReserve(main.sync, main.pool.side))) main = { pool, sync };
    }
    return main;
  }

  /**
   * The token's pools of a configured DEX with the quote token on exactly one side; `null` when
   * it has none or a decimals value is unknown. The quote token's pools are all of them, each
   * seen from its other token's side so that the quote reserve is the quote token's.
   */
  async #pools(token: Hex): Promise<QuotePool[] | null> {
    const quote = this.#quote;
    const [pairs, quoteDecimals, tokenDecimals] = await Promise.all([this.storage.listTokenPairs(token), this.decimalsOf(quote), this.decimalsOf(token)]);
    if (quoteDecimals === null || tokenDecimals === null) return null;
    const pools = pairs.filter((pair) => this.#counts(pair) && (pair.token0 === quote) !== (pair.token1 === quote));
    if (token === quote) return pools.map((pair) => this.#pool(pair, pair.token1 === quote, quoteDecimals, quoteDecimals));
    return pools.length === 0 ? null : pools.map((pair) => this.#pool(pair, pair.token0 === token, tokenDecimals, quoteDecimals));
  }

  #pool(pair: StoredPair, tokenIsToken0: boolean, tokenDecimals: number, quoteDecimals: number): QuotePool {
    return { dex: this.#dexByFactory.get(pair.factory)!, pair: pair.address, side: { tokenIsToken0, tokenDecimals, quoteDecimals, quoteUsd: this.#quoteUsd } };
  }

  /** A pair counts when a configured factory created it. */
  #counts(pair: StoredPair): boolean {
    return this.#dexByFactory.has(pair.factory);
  }
}
