import { z } from 'zod';
import type { Services } from '../../explorer-services.js';
import { ok } from './answers.js';
import { EtherscanError } from './etherscan-errors.js';
import type { EtherscanAction, EtherscanModule } from './module.js';
import { contractAddressParam, parseParams } from './params.js';
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

/** The native coin's supply: no node call tells it, and adding up balances would miss what no block shows (genesis allocations, burns). */
class NativeSupplyUnknownError extends EtherscanError {
  constructor() {
    super('Error! The native coin supply is unknown: an EVM node does not tell it');
  }
}

/** The node's database size: no JSON-RPC call tells it. */
class ChainSizeUnknownError extends EtherscanError {
  constructor() {
    super('Error! The chain size is unknown: an EVM node does not tell the size of its database');
  }
}

class NoTotalSupplyError extends EtherscanError {
  constructor() {
    super('Error! The contract has no totalSupply()');
  }
}

const tokenSupplyParams = z.object({ contractaddress: contractAddressParam });

/** The `stats` module. */
export function statsModule(services: Services): EtherscanModule {
  const nativeSupply: EtherscanAction = async () => {
    throw new NativeSupplyUnknownError();
  };

  return {
    actions: {
      /** The coin's USD price: its wrapped token's, at the newest indexed block's time. */
      async ethprice() {
        if (services.prices.nativeToken === null) throw new NoNativePriceError();
        const price = await services.prices.nativePrice();
        if (price === null) throw new NativePriceUnknownError();
        return ok(etherPrice(price));
      },

      /** `totalSupply()` at the newest indexed block, in base units. */
      async tokensupply(params) {
        const { contractaddress } = parseParams(tokenSupplyParams, params);
        const supply = await services.tokens.totalSupplyAt(contractaddress);
        if (supply === null) throw new NoTotalSupplyError();
        return ok(supply.toString());
      },

      ethsupply: nativeSupply,
      ethsupply2: nativeSupply,

      async chainsize() {
        throw new ChainSizeUnknownError();
      },
    },
  };
}
