import type { Services } from '../../services/index.js';
import { ok } from './answers.js';
import { EtherscanError } from './errors.js';
import type { EtherscanModule } from './module.js';
import { etherPrice } from './records.js';

/** No token stands for the native coin in the price source, so the coin has no price to answer. */
class NoNativePriceError extends EtherscanError {
  constructor() {
    super('Error! No price source for the native coin: no token is named as its wrapped form (prices.nativeToken)');
  }
}

/** The wrapped coin is named but has no price yet (no pool against the quote token, or none synced). */
class NativePriceUnknownError extends EtherscanError {
  constructor() {
    super('Error! The native coin has no price yet: its wrapped token has no priced pool');
  }
}

/** The `stats` module. */
export function statsModule(services: Services): EtherscanModule {
  return {
    actions: {
      /** The coin's USD price: its wrapped token's, at the newest indexed block's time. */
      async ethprice() {
        if (services.prices.nativeToken === null) throw new NoNativePriceError();
        const price = await services.prices.nativePrice();
        if (price === null) throw new NativePriceUnknownError();
        return ok(etherPrice(price));
      },
    },
  };
}
