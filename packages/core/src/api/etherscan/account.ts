import { z } from 'zod';
import { InvalidAddressError } from '../../errors/index.js';
import { withError } from '../../http/index.js';
import { addressSchema, hashSchema, optionalAddressSchema, type BlockTag } from '../../http/request-schemas.js';
import type { AccountTokenTransferRecord, Services } from '../../services/index.js';
import type { Hex, TokenStandard } from '../../storage/index.js';
import { list, ok } from './answers.js';
import { EtherscanError } from './errors.js';
import type { EtherscanModule } from './module.js';
import { blockBoundParam, blockNumberOf, blockTagParam, checkWindow, pagingShape, parseParams, type EtherscanParams } from './params.js';
import { erc1155Transfer, erc20Transfer, erc721Transfer, internalTransaction, listedInternalTransaction, normalTransaction } from './records.js';

/** The most addresses one `balancemulti` reads, as Etherscan allows. */
const MAX_BALANCES = 20;
const NO_TRANSACTIONS = 'No transactions found';

/** A comma-separated list of 1..20 addresses. */
const addressListSchema = withError(
  z
    .string()
    .transform((value) => value.split(','))
    .pipe(z.array(addressSchema).min(1)),
  () => new InvalidAddressError(),
);

const listShape = { startblock: blockBoundParam, endblock: blockBoundParam, ...pagingShape };

const balanceParams = z.object({ address: addressSchema, tag: blockTagParam });
const balancesParams = z.object({ address: addressListSchema, tag: blockTagParam });
const txlistParams = z.object({ address: addressSchema, ...listShape });
const internalParams = z.object({ txhash: hashSchema });
const internalListParams = z.object({ address: optionalAddressSchema, ...listShape });
const tokenTransfersParams = z.object({
  address: optionalAddressSchema,
  contractaddress: withError(addressSchema.optional(), () => new EtherscanError('Error! Invalid contract address format')),
  ...listShape,
});

/** `txlistinternal` names neither a transaction, an address nor a whole block range. */
class InternalTransactionsScopeError extends EtherscanError {
  constructor() {
    super('Error! Missing txhash, address, or startblock and endblock');
  }
}

class TracesUnavailableError extends EtherscanError {
  constructor() {
    super('Error! The node does not trace transactions, so their internal transactions are unknown');
  }
}

class TooManyAddressesError extends EtherscanError {
  constructor() {
    super(`Error! Too many addresses: at most ${MAX_BALANCES}`);
  }
}

/** The `account` module: balances, transaction lists and token transfers. */
export function accountModule(services: Services): EtherscanModule {
  /** A list's block range, `latest` read as the indexed head. */
  const rangeOf = (query: { startblock?: BlockTag; endblock?: BlockTag }) => services.blocks.bounds({ start: query.startblock, end: query.endblock });

  async function balanceOf(address: Hex, tag: string): Promise<string> {
    return (await services.accounts.weiBalance(address, blockNumberOf(tag) ?? undefined)).balance;
  }

  function tokenTransfers(standard: TokenStandard, entry: (transfer: AccountTokenTransferRecord) => unknown) {
    return async (params: EtherscanParams) => {
      const query = parseParams(tokenTransfersParams, params);
      if (query.address === undefined && query.contractaddress === undefined) throw new InvalidAddressError();
      checkWindow(query);
      const transfers = await services.tokens.accountTransfers({
        address: query.address,
        token: query.contractaddress,
        standard,
        ...(await rangeOf(query)),
        page: query.page,
        offset: query.offset,
        sort: query.sort,
      });
      return list(transfers.map(entry), NO_TRANSACTIONS);
    };
  }

  return {
    actions: {
      async balance(params) {
        const { address, tag } = parseParams(balanceParams, params);
        return ok(await balanceOf(address, tag));
      },

      async balancemulti(params) {
        const { address, tag } = parseParams(balancesParams, params);
        if (address.length > MAX_BALANCES) throw new TooManyAddressesError();
        return ok(await Promise.all(address.map(async (account) => ({ account, balance: await balanceOf(account, tag) }))));
      },

      async txlist(params) {
        const query = parseParams(txlistParams, params);
        checkWindow(query);
        const transactions = await services.accounts.transactions({
          address: query.address,
          ...(await rangeOf(query)),
          page: query.page,
          offset: query.offset,
          sort: query.sort,
        });
        return list(transactions.map(normalTransaction), NO_TRANSACTIONS);
      },

      /** By `txhash` from the node's trace; by `address`, or by block range alone, from the indexed ones. */
      async txlistinternal(params) {
        if (params.txhash !== undefined) {
          const { txhash } = parseParams(internalParams, params);
          const internal = await services.transactions.internalTransactions(txhash);
          if (internal === null) throw new TracesUnavailableError();
          return list(internal.map(internalTransaction), NO_TRANSACTIONS);
        }
        const query = parseParams(internalListParams, params);
        // Etherscan lists a block range alone only with both bounds.
        if (query.address === undefined && (params.startblock === undefined || params.endblock === undefined)) throw new InternalTransactionsScopeError();
        checkWindow(query);
        const internal = await services.transactions.listInternalTransactions({
          address: query.address,
          ...(await rangeOf(query)),
          page: query.page,
          offset: query.offset,
          sort: query.sort,
        });
        return list(internal.map(listedInternalTransaction), NO_TRANSACTIONS);
      },

      tokentx: tokenTransfers('ERC-20', erc20Transfer),
      tokennfttx: tokenTransfers('ERC-721', erc721Transfer),
      token1155tx: tokenTransfers('ERC-1155', erc1155Transfer),
    },
  };
}
