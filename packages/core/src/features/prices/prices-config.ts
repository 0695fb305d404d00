import { z } from 'zod';
import { isPriceSource, type PriceSource } from '../../prices/price-source.js';

/** A contract address, kept in the canonical lowercase form storage uses. */
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
  .transform((v) => v.toLowerCase() as `0x${string}`);

/** The `prices` slice of the explorer's config: the built-in source's Uniswap-V2-compatible pairs and the quote token they are priced against. */
export const pricesConfigSchema = z.object({
  /** The token prices are quoted in (typically a USD stablecoin). */
  quoteToken: address,
  /** USD value of one whole quote token, a positive decimal string of at most 18 decimals (`'1'`, `'0.9998'`). */
  quoteTokenUsd: z
    .string()
    .regex(/^(?!0+(\.0+)?$)\d{1,30}(\.\d{1,18})?$/, 'must be a positive decimal string with at most 18 decimals, e.g. "1"'),
  /** Factories whose pairs count (their `PairCreated` logs), with the DEX name liquidity pools show. */
  dexes: z.array(z.object({ name: z.string().min(1).max(64), factory: address })).min(1),
  /** The wrapped native coin (WETH on Ethereum): its price is the coin's (`stats/ethprice`). Unset: the coin has no price. */
  nativeToken: address.optional(),
});

/** The `priceSource` option: a price source of the embedder's own instead of `prices`. */
export const priceSourceSchema = z.custom<PriceSource>(
  isPriceSource,
  'must be a PriceSource: an object with pricedTokens, price, priceAt, priceRange, volume and pools methods (tokensMovedBy and a lowercase nativeToken address optional)',
);

/** The `prices` options, resolved. */
export type PricesConfig = z.output<typeof pricesConfigSchema>;
