import { z } from 'zod';
import { InvalidAddressError } from '../../errors/index.js';
import { addressSchema, hashSchema, optionalAddressSchema } from '../../values/hex.js';
import type { BlockTag } from '../../values/block-tag.js';
import type { AccountTokenTransferRecord } from '../../services/index.js';
import type { Services } from '../../explorer-services.js';
import type { Hex, TokenStandard } from '../../storage/index.js';
import { list, ok } from './answers.js';
import { EtherscanError } from './etherscan-errors.js';
import type { EtherscanModule } from './module.js';
import {
  addressListParam,
  blockBoundParam,
  blockNumberOf,
  blockTagParam,
  checkWindow,
  contractAddressParam,
  optionalContractAddressParam,
  pageOf,
  pagingShape,
  parseParams,
  RESULT_WINDOW,
  type EtherscanParams,
} from './params.js';
import { erc1155Transfer, erc20Transfer, erc721Transfer, internalTransaction, listedInternalTransaction, normalTransaction } from './records.js';

/** The most addresses one `balancemulti` reads, as Etherscan allows. */
const MAX_BALANCES = 20;
const NO_TRANSACTIONS = 'No transactions found';

const listShape = { startblock: blockBoundParam, endblock: blockBoundParam, ...pagingShape };

const balanceParams = z.object({ address: addressSchema, tag: blockTagParam });
const balancesParams = z.object({ address: addressListParam, tag: blockTagParam });
const txlistParams = z.object({ address: addressSchema, ...listShape });
const internalParams = z.object({ txhash: hashSchema });
const internalListParams = z.object({ address: optionalAddressSchema, ...listShape });
const minedBlocksParams = z.object({
  address: addressSchema,
  blocktype: z.enum(['blocks', 'uncles'], { message: "must be 'blocks' or 'uncles'" }).optional().default('blocks'),
  page: pagingShape.page,
  offset: pagingShape.offset,
});
const tokenBalanceParams = z.object({ contractaddress: contractAddressParam, address: addressSchema, tag: blockTagParam });
const holdingsParams = z.object({ address: addressSchema, page: pagingShape.page, offset: pagingShape.offset });
const inventoryParams = z.object({ address: addressSchema, contractaddress: contractAddressParam, page: pagingShape.page, offset: pagingShape.offset });
const tokenTransfersParams = z.object({
  address: optionalAddressSchema,
  contractaddress: optionalContractAddressParam,
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

class NoBalanceOfError extends EtherscanError {
  constructor() {
    super('Error! The contract does not answer balanceOf(address)');
  }
}

/** Uncles are not indexed (and no chain has had any since the merge). */
class UnclesUnindexedError extends EtherscanError {
  constructor() {
    super('Error! Uncles are not indexed, so the uncles an address mined cannot be listed');
  }
}

/** The most blocks one `getminedblocks` page holds: each block's transactions are read for its reward. */
const MAX_MINED_BLOCKS = 1_000;

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
      const transfers = await services.tokens.tokenTransfersText(
        {
          address: query.address,
          token: query.contractaddress,
          standard,
          ...(await rangeOf(query)),
          page: query.page,
          offset: query.offset,
          sort: query.sort,
        },
        `etherscan ${standard}`,
        entry,
      );
      return list(transfers, NO_TRANSACTIONS);
    };
  }

  /** The tokens of `standard` an address holds, a page of them as Etherscan pages (see `holdings` in docs). */
  async function holdingsOf(params: EtherscanParams, standard: TokenStandard) {
    const query = parseParams(holdingsParams, params);
    checkWindow(query);
    // Storage pages holdings of every standard: read the whole window, then page this standard's.
    const held = (await services.tokens.holdings(query.address, 1, RESULT_WINDOW)).filter((holding) => holding.standard === standard);
    return pageOf(held, query);
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

      /** `balanceOf(address)` as the token contract answers it at `tag` (the newest indexed block by default). */
      async tokenbalance(params) {
        const { contractaddress, address, tag } = parseParams(tokenBalanceParams, params);
        const balance = await services.tokens.balanceOf(contractaddress, address, blockNumberOf(tag) ?? undefined);
        if (balance === null) throw new NoBalanceOfError();
        return ok(balance.toString());
      },

      async addresstokenbalance(params) {
        const held = await holdingsOf(params, 'ERC-20');
        return list(
          held.map((holding) => ({
            TokenAddress: holding.token,
            TokenName: holding.name ?? '',
            TokenSymbol: holding.symbol ?? '',
            TokenQuantity: holding.balance,
            TokenDivisor: holding.decimals ?? '',
          })),
          NO_TRANSACTIONS,
        );
      },

      async addresstokennftbalance(params) {
        const held = await holdingsOf(params, 'ERC-721');
        return list(
          held.map((holding) => ({ TokenAddress: holding.token, TokenName: holding.name ?? '', TokenSymbol: holding.symbol ?? '', TokenQuantity: holding.balance })),
          NO_TRANSACTIONS,
        );
      },

      async addresstokennftinventory(params) {
        const query = parseParams(inventoryParams, params);
        checkWindow(query);
        const ids = await services.tokens.nftInventory(query.address, query.contractaddress);
        return list(
          pageOf(ids, query).map((id) => ({ TokenAddress: query.contractaddress, TokenId: id.toString() })),
          NO_TRANSACTIONS,
        );
      },

      /** From the node's blocks in the range (at most 1,000 of them; see `beaconWithdrawals`). */
      async txsBeaconWithdrawal(params) {
        const query = parseParams(txlistParams, params);
        checkWindow(query);
        const withdrawals = await services.accounts.beaconWithdrawals({ address: query.address, ...(await rangeOf(query)) });
        const ordered = query.sort === 'desc' ? withdrawals.reverse() : withdrawals;
        return list(pageOf(ordered, query), NO_TRANSACTIONS);
      },

      /** Newest first, with what each block's transactions paid above the base fee (as `block/getblockreward`); `offset` at most 1 000. */
      async getminedblocks(params) {
        const query = parseParams(minedBlocksParams, params);
        checkWindow(query);
        if (query.blocktype === 'uncles') throw new UnclesUnindexedError();
        const offset = Math.min(query.offset, MAX_MINED_BLOCKS);
        const mined = await services.blocks.minedBlocks(query.address, query.page, offset);
        return list(
          mined.map((reward) => ({ blockNumber: reward.blockNumber, timeStamp: reward.timestamp, blockReward: reward.priorityFees })),
          NO_TRANSACTIONS,
        );
      },

      tokentx: tokenTransfers('ERC-20', erc20Transfer),
      tokennfttx: tokenTransfers('ERC-721', erc721Transfer),
      token1155tx: tokenTransfers('ERC-1155', erc1155Transfer),
    },
    // Answers from indexed transactions and transfers alone; each shows its confirmations, so it is kept for its head.
    caching: { txlist: {}, tokentx: {}, tokennfttx: {}, token1155tx: {} },
  };
}
