import { formatUnits } from 'viem';
import type { StoredPairSync } from '../storage/index.js';

/**
 * USD amounts and prices are bigints of 10^-18 USD: exact sums and products, one truncation per
 * division, and no JS number anywhere between the chain's integers and the answer's string.
 */
export const USD_DECIMALS = 18;

/** A USD amount as the API answers it: a decimal string, trailing zeros dropped. */
export function formatUsd(amount: bigint): string {
  return formatUnits(amount, USD_DECIMALS);
}

/** What prices a token on one pair: which side it is, and both tokens' decimals. */
export interface PricedSide {
  /** The token is the pair's token0 (the quote token is token1), or token1. */
  tokenIsToken0: boolean;
  tokenDecimals: number;
  quoteDecimals: number;
  /** USD value of one whole quote token. */
  quoteUsd: bigint;
}

/** The quote token's reserve in a sync. */
export function quoteReserve(sync: StoredPairSync, side: PricedSide): bigint {
  return side.tokenIsToken0 ? sync.reserve1 : sync.reserve0;
}

/**
 * USD of one whole token at a sync's reserves (the pair's marginal price, fees aside): quote
 * reserve over token reserve, each in whole units, times the quote's USD value. `null` when a
 * reserve is empty, since an empty side has no price.
 */
export function priceAtSync(sync: StoredPairSync, side: PricedSide): bigint | null {
  const tokenReserve = side.tokenIsToken0 ? sync.reserve0 : sync.reserve1;
  const quote = quoteReserve(sync, side);
  if (tokenReserve === 0n || quote === 0n) return null;
  return (quote * 10n ** BigInt(side.tokenDecimals) * side.quoteUsd) / (tokenReserve * 10n ** BigInt(side.quoteDecimals));
}

/** USD value of an amount of the quote token in base units. */
export function quoteToUsd(amount: bigint, side: Pick<PricedSide, 'quoteDecimals' | 'quoteUsd'>): bigint {
  return (amount * side.quoteUsd) / 10n ** BigInt(side.quoteDecimals);
}
