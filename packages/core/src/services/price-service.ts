import { parseUnits } from 'viem';
import type { ResolvedConfig } from '../config.js';
import { type PricedSide, priceAtSync, quoteReserve, quoteToUsd, USD_DECIMALS } from '../prices/usd.js';
import type { Hex, Storage, StoredPair, StoredPairSync } from '../storage/index.js';
import type { TokenMetadataReader } from '../tokens/token-metadata.js';
import type { IndexedHead } from './indexed-head.js';
import { percentOf } from './percent.js';

const DAY_SECONDS = 86_400n;

/** A pair of a configured DEX between a token and the quote token. */
export interface QuotePool {
  dex: string;
  pair: Hex;
  side: PricedSide;
}

/** A liquidity pool as the analytics answer it. */
export interface PoolLiquidity {
  dex: string;
  pair: Hex;
  /** USD (10^-18), both sides: twice the quote reserve's value, as a balanced pool holds. */
  liquidity: bigint;
}

/**
 * What the chain's pairs say of a token at one moment of chain time. USD values are bigints of
 * 10^-18 USD (see `prices/usd.ts`); `null` where the history does not tell (no reserves yet, or
 * no price that long ago), never a guess.
 */
export interface TokenMarket {
  token: Hex;
  /** The token's own decimals. */
  decimals: number;
  /** USD of one whole token, from the pool with the most quote-side liquidity. */
  price: bigint | null;
  /** Percent change against the price standing 24 h and 7 d before. */
  change24h: string | null;
  change7d: string | null;
  /** Highest and lowest price over the last 24 h, the price standing at its start included. */
  high24h: bigint | null;
  low24h: bigint | null;
  /** Quote-side value of every swap on the token's pools over the last 24 h, and the 24 h before. */
  volume24h: bigint;
  volumeChange24h: string | null;
  pools: PoolLiquidity[];
  totalLiquidity: bigint;
}

type PriceConfig = NonNullable<ResolvedConfig['prices']>;

/**
 * Prices from Uniswap-V2-compatible pairs on the chain itself: pairs of the configured factories
 * against the configured quote token, their `Sync` reserves as price history and `Swap` amounts
 * as volume, all read from storage. Without a configured source every answer is `null`.
 */
export class PriceService {
  readonly #quote: Hex | null;
  readonly #quoteUsd: bigint;
  readonly #dexByFactory: ReadonlyMap<Hex, string>;

  constructor(
    private readonly storage: Storage,
    private readonly head: IndexedHead,
    private readonly reader: TokenMetadataReader,
    config: PriceConfig | undefined,
  ) {
    this.#quote = config?.quoteToken ?? null;
    this.#quoteUsd = config ? parseUnits(config.quoteTokenUsd, USD_DECIMALS) : 0n;
    this.#dexByFactory = new Map((config?.dexes ?? []).map((dex) => [dex.factory, dex.name]));
  }

  /** Whether a price source is configured. */
  get enabled(): boolean {
    return this.#quote !== null;
  }

  /** The quote token and every token with a pool against it: all tokens that can have a price. */
  async pricedTokens(): Promise<Hex[]> {
    if (this.#quote === null) return [];
    const quote = this.#quote;
    const pairs = (await this.storage.listTokenPairs(quote)).filter((pair) => this.#counts(pair));
    return [...new Set([quote, ...pairs.map((pair) => (pair.token0 === quote ? pair.token1 : pair.token0))])];
  }

  /** Of `pairs`, the configured DEXes' pools against the quote token, each with the token it prices. */
  async tokensPricedBy(pairs: Iterable<Hex>): Promise<Map<Hex, Hex>> {
    const priced = new Map<Hex, Hex>();
    if (this.#quote === null) return priced;
    const quote = this.#quote;
    const wanted = new Set(pairs);
    for (const pair of await this.storage.listTokenPairs(quote)) {
      if (this.#counts(pair) && wanted.has(pair.address) && pair.token0 !== pair.token1) priced.set(pair.address, pair.token0 === quote ? pair.token1 : pair.token0);
    }
    return priced;
  }

  /**
   * The token's market at chain time `now` (default: the newest indexed block's time), or `null`
   * when no source is configured, the token has no pool against the quote token, or a decimals
   * value is unknown.
   */
  async market(token: Hex, now?: bigint): Promise<TokenMarket | null> {
    if (this.#quote === null) return null;
    const time = now ?? (await this.#chainTime());
    if (time === null) return null;
    const quote = this.#quote;
    const [pairs, quoteDecimals, tokenDecimals] = await Promise.all([this.storage.listTokenPairs(token), this.#decimalsOf(quote), this.#decimalsOf(token)]);
    if (quoteDecimals === null || tokenDecimals === null) return null;
    // Pairs of a configured DEX with the quote token on exactly one side.
    const pools = pairs.filter((pair) => this.#counts(pair) && (pair.token0 === quote) !== (pair.token1 === quote));
    if (token === quote) return this.#quoteMarket(pools, quoteDecimals, time);
    if (pools.length === 0) return null;
    return this.#tokenMarket(token, pools.map((pair) => this.#pool(pair, pair.token0 === token, tokenDecimals, quoteDecimals)), time);
  }

  async #tokenMarket(token: Hex, pools: QuotePool[], now: bigint): Promise<TokenMarket> {
    const syncs = await Promise.all(pools.map((pool) => this.storage.getPairSyncAt(pool.pair, now)));
    const liquidity = pools.map((pool, i) => ({ dex: pool.dex, pair: pool.pair, liquidity: 2n * quoteToUsd(syncs[i] ? quoteReserve(syncs[i], pool.side) : 0n, pool.side) }));
    // The deepest pool sets the price: the one whose quote reserve is largest.
    let main = -1;
    syncs.forEach((sync, i) => {
      if (sync && priceAtSync(sync, pools[i]!.side) !== null && (main < 0 || quoteReserve(sync, pools[i]!.side) > quoteReserve(syncs[main]!, pools[main]!.side))) main = i;
    });
    const [history, volume] = await Promise.all([main < 0 ? null : this.#history(pools[main]!, syncs[main]!, now), this.#volume(pools, now)]);
    return {
      token,
      decimals: pools[0]!.side.tokenDecimals,
      price: history?.price ?? null,
      change24h: history?.change24h ?? null,
      change7d: history?.change7d ?? null,
      high24h: history?.high ?? null,
      low24h: history?.low ?? null,
      ...volume,
      pools: liquidity,
      totalLiquidity: liquidity.reduce((sum, pool) => sum + pool.liquidity, 0n),
    };
  }

  /** The quote token's price is configured, so it has no history; its pools are every pool. */
  async #quoteMarket(pairs: StoredPair[], decimals: number, now: bigint): Promise<TokenMarket> {
    // Each pool seen from its other token's side, so the quote reserve is the quote token's.
    const pools = pairs.map((pair) => this.#pool(pair, pair.token1 === this.#quote, decimals, decimals));
    const syncs = await Promise.all(pools.map((pool) => this.storage.getPairSyncAt(pool.pair, now)));
    const liquidity = pools.map((pool, i) => ({ dex: pool.dex, pair: pool.pair, liquidity: 2n * quoteToUsd(syncs[i] ? quoteReserve(syncs[i], pool.side) : 0n, pool.side) }));
    return {
      token: this.#quote!,
      decimals,
      price: this.#quoteUsd,
      change24h: null,
      change7d: null,
      high24h: null,
      low24h: null,
      ...(await this.#volume(pools, now)),
      pools: liquidity,
      totalLiquidity: liquidity.reduce((sum, pool) => sum + pool.liquidity, 0n),
    };
  }

  async #history(pool: QuotePool, current: StoredPairSync, now: bigint) {
    const price = priceAtSync(current, pool.side)!;
    const [dayAgo, weekAgo, extremes] = await Promise.all([
      this.storage.getPairSyncAt(pool.pair, now - DAY_SECONDS),
      this.storage.getPairSyncAt(pool.pair, now - 7n * DAY_SECONDS),
      this.storage.getPairSyncExtremes(pool.pair, now - DAY_SECONDS, now),
    ]);
    const dayAgoPrice = dayAgo && priceAtSync(dayAgo, pool.side);
    const weekAgoPrice = weekAgo && priceAtSync(weekAgo, pool.side);
    // The highest reserve1/reserve0 is token0's highest price but token1's lowest: price both.
    const candidates = [price, dayAgoPrice, ...(extremes ? [extremes.highest, extremes.lowest].map((sync) => priceAtSync(sync, pool.side)) : [])].filter(
      (value): value is bigint => value !== null,
    );
    return {
      price,
      change24h: change(price, dayAgoPrice),
      change7d: change(price, weekAgoPrice),
      high: candidates.reduce((a, b) => (b > a ? b : a)),
      low: candidates.reduce((a, b) => (b < a ? b : a)),
    };
  }

  async #volume(pools: QuotePool[], now: bigint): Promise<{ volume24h: bigint; volumeChange24h: string | null }> {
    const window = async (from: bigint, to: bigint) => {
      const sums = await Promise.all(pools.map((pool) => this.storage.sumPairSwaps(pool.pair, from, to)));
      return sums.reduce((total, sum, i) => {
        const side = pools[i]!.side;
        const traded = side.tokenIsToken0 ? sum.amount1In + sum.amount1Out : sum.amount0In + sum.amount0Out;
        return total + quoteToUsd(traded, side);
      }, 0n);
    };
    const [volume24h, previous] = await Promise.all([window(now - DAY_SECONDS, now), window(now - 2n * DAY_SECONDS, now - DAY_SECONDS)]);
    return { volume24h, volumeChange24h: change(volume24h, previous) };
  }

  #pool(pair: StoredPair, tokenIsToken0: boolean, tokenDecimals: number, quoteDecimals: number): QuotePool {
    return { dex: this.#dexByFactory.get(pair.factory)!, pair: pair.address, side: { tokenIsToken0, tokenDecimals, quoteDecimals, quoteUsd: this.#quoteUsd } };
  }

  /** A pair counts when a configured factory created it. */
  #counts(pair: StoredPair): boolean {
    return this.#dexByFactory.has(pair.factory);
  }

  async #decimalsOf(token: Hex): Promise<number | null> {
    const stored = await this.storage.getToken(token);
    if (stored?.metadata) return stored.metadata.decimals;
    return (await this.reader.metadata(token, await this.head.blockTag())).decimals;
  }

  /** The newest indexed block's timestamp: prices move with the chain, not the wall clock. */
  async #chainTime(): Promise<bigint | null> {
    const cursor = await this.head.current();
    return cursor && ((await this.storage.getBlockByNumber(cursor.number))?.timestamp ?? null);
  }
}

/** Percent change from `before` to `now`; `null` without a `before` to compare with. */
function change(now: bigint, before: bigint | null): string | null {
  return before === null || before === 0n ? null : percentOf(now - before, before);
}
