import { formatBlock, formatTransaction, transactionAddresses } from '../../services/format.js';
import type { BlockBundle, Hex } from '../../storage/index.js';
import type { GraphqlContext } from '../context.js';
import type { TransferNode } from './token.js';

/** Transfers one read takes when collecting a block's transfers of a token. */
const TRANSFER_PAGE = 100;

/** A subscription field: items from the hub, each passed on as the field's value. */
const field = <T>(subscribe: (args: never, context: GraphqlContext) => AsyncIterableIterator<T>) => ({
  subscribe: (_: unknown, args: never, context: GraphqlContext) => subscribe(args, context),
  resolve: (item: T) => item,
});

/** A block's transactions as REST shapes them, labels included: one lookup and one shaping per block, for every feed. */
function transactionsOf(context: GraphqlContext, bundle: BlockBundle) {
  return context.feeds.derived(bundle, 'transactions', async () => {
    const labels = await context.services.labels.labelsOf(bundle.transactions.flatMap(transactionAddresses));
    return bundle.transactions.map((tx) => formatTransaction(tx, bundle.block.number, labels));
  });
}

/** The token's transfers in a block, through the service REST's `token/:address/transfers` uses. */
async function blockTransfers(context: GraphqlContext, token: Hex, bundle: BlockBundle): Promise<TransferNode[]> {
  if (!bundle.tokenTransfers.some((transfer) => transfer.token === token)) return [];
  const found: TransferNode[] = [];
  for (let page = 1; ; page++) {
    const transfers = await context.services.tokens.transfers({ token, startBlock: bundle.block.number, endBlock: bundle.block.number, page, offset: TRANSFER_PAGE, sort: 'asc' });
    found.push(...transfers.map((transfer) => ({ ...transfer, tokenAddress: token })));
    if (transfers.length < TRANSFER_PAGE) return found;
  }
}

/**
 * Live data from the event hub, shaped as REST shapes the same records: once per event for every
 * subscription of the same field and filter (one hub listener each, see `HubFeeds`).
 */
export const subscriptionResolvers = {
  Subscription: {
    blocks: field((_, context) =>
      context.feeds.iterate('blocks', 'block', async (bundle) => [formatBlock(bundle.block, bundle.transactions.map((tx) => tx.hash), await context.services.labels.labelsOf([bundle.block.miner]))]),
    ),
    transactions: field((_, context) => context.feeds.iterate('transactions', 'block', (bundle) => transactionsOf(context, bundle))),
    addressTransactions: field((args: { address: Hex }, context) =>
      context.feeds.iterate(`addressTransactions:${args.address}`, 'block', async (bundle) =>
        (await transactionsOf(context, bundle)).filter((tx) => tx.from === args.address || tx.to === args.address || tx.contractAddress === args.address),
      ),
    ),
    tokenTransfers: field((args: { token: Hex }, context) => context.feeds.iterate(`tokenTransfers:${args.token}`, 'block', (bundle) => blockTransfers(context, args.token, bundle))),
  },
};
