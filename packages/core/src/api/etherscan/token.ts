import { z } from 'zod';
import type { Services } from '../../explorer-services.js';
import { list, ok } from './answers.js';
import type { EtherscanModule } from './module.js';
import { checkWindow, contractAddressParam, pagingShape, parseParams } from './params.js';
import { tokenInfo } from './records.js';

const tokenParams = z.object({ contractaddress: contractAddressParam });
const holderListParams = z.object({ contractaddress: contractAddressParam, page: pagingShape.page, offset: pagingShape.offset });

/** The `token` module: a token's holders and what it says about itself, from the indexed holders and the contract. */
export function tokenModule(services: Services): EtherscanModule {
  return {
    actions: {
      /** Holders by balance, largest first, as `/token/:address/holders` lists them. */
      async tokenholderlist(params) {
        const query = parseParams(holderListParams, params);
        checkWindow(query);
        const { holders } = await services.tokens.holders(query.contractaddress, { page: query.page, offset: query.offset });
        return list(
          holders.map((holder) => ({ TokenHolderAddress: holder.address, TokenHolderQuantity: holder.balance })),
          'No records found',
        );
      },

      async tokenholdercount(params) {
        const { contractaddress } = parseParams(tokenParams, params);
        return ok(String((await services.tokens.holders(contractaddress, { page: 1, offset: 1 })).total));
      },

      async tokeninfo(params) {
        const { contractaddress } = parseParams(tokenParams, params);
        return ok([tokenInfo(await services.tokens.token(contractaddress))]);
      },
    },
  };
}
