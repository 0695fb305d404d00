import { z } from 'zod';
import type { Services, TokenRecord } from '../../services/index.js';
import { list, ok } from './answers.js';
import type { EtherscanModule } from './module.js';
import { checkWindow, contractAddressParam, pagingShape, parseParams } from './params.js';

const tokenParams = z.object({ contractaddress: contractAddressParam });
const holderListParams = z.object({ contractaddress: contractAddressParam, page: pagingShape.page, offset: pagingShape.offset });

/** Etherscan's name of a standard: `ERC20`, `ERC721`, `ERC1155`. */
function tokenType(standard: TokenRecord['standard']): string {
  return standard.replace('-', '');
}

/**
 * `token/tokeninfo`: the token record in Etherscan's fields and order. What neither the contract
 * nor its metadata profile tells (email, blog, other social links, whitepaper) is `''`, as
 * Etherscan leaves what it does not know.
 */
function tokenInfo(token: TokenRecord) {
  return {
    contractAddress: token.address,
    tokenName: token.name ?? '',
    symbol: token.symbol ?? '',
    divisor: token.decimals ?? (token.standard === 'ERC-20' ? '' : '0'),
    tokenType: tokenType(token.standard),
    totalSupply: token.totalSupply ?? '',
    blueCheckmark: token.verified ? 'true' : 'false',
    description: token.metadata.description ?? '',
    website: token.website ?? '',
    email: '',
    blog: '',
    reddit: '',
    slack: '',
    facebook: '',
    twitter: token.social.twitter ?? '',
    bitcointalk: '',
    github: '',
    telegram: token.social.telegram ?? '',
    wechat: '',
    linkedin: '',
    discord: '',
    whitepaper: '',
    tokenPriceUSD: token.priceUSD ?? '',
  };
}

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
