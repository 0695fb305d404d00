import type { PoolLiquidity } from '../prices/price-source.js';
import type { Hex } from '../storage/index.js';

/**
 * What the price source says of a token at one moment of chain time. USD values are bigints of
 * 10^-18 USD (see `prices/usd.ts`); `null` where the source does not tell (no price yet, none
 * that long ago), never a guess.
 */
export interface TokenMarket {
  token: Hex;
  /** The token's own decimals. */
  decimals: number;
  /** USD of one whole token. */
  price: bigint | null;
  /** Percent change against the price standing 24 h and 7 d before. */
  change24h: string | null;
  change7d: string | null;
  /** Highest and lowest price over the last 24 h, the price standing at its start included. */
  high24h: bigint | null;
  low24h: bigint | null;
  /** USD traded over the last 24 h, and its percent change against the 24 h before. */
  volume24h: bigint;
  volumeChange24h: string | null;
  pools: PoolLiquidity[];
  totalLiquidity: bigint;
}

/**
 * What the chain's services read of token prices. The prices feature implements it
 * (`PriceService`); the services take this port so that they do not depend on that feature.
 */
export interface TokenPrices {
  /** Every token the source can price. */
  pricedTokens(): Promise<Hex[]>;
  /** The price standing at each of `times` (chain time), in input order; `null` where none was. */
  history(token: Hex, times: readonly bigint[]): Promise<(bigint | null)[]>;
  /** The token's market at chain time `now` (default: the newest indexed block's time), `null` without a price. */
  market(token: Hex, now?: bigint): Promise<TokenMarket | null>;
}
