import { formatBlock, formatTransaction } from '../../services/format.js';
import type { BlockBundle, Hex } from '../../storage/index.js';
import type { GraphqlContext } from '../context.js';
import { hubIterator } from '../hub-iterator.js';
import type { TransferNode } from './token.js';

/** Transfers one read takes when collecting a block's transfers of a token. */
const TRANSFER_PAGE = 100;

/** A subscription field: items from the hub, each passed on as the field's value. */
const field = <T>(subscribe: (args: never, context: GraphqlContext) => AsyncIterableIterator<T>) => ({
  subscribe: (_: unknown, args: never, context: GraphqlContext) => subscribe(args, context),
  resolve: (item: T) => item,
});

const transactionsOf = (bundle: BlockBundle) => bundle.transactions.map((tx) => formatTransaction(tx, bundle.block.number));

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

/** Live data from the event hub, shaped as REST shapes the same records. */
export const subscriptionResolvers = {
  Subscription: {
    blocks: field((_, context) => hubIterator(context.hub, 'block', (bundle) => [formatBlock(bundle.block, bundle.transactions.map((tx) => tx.hash))])),
    transactions: field((_, context) => hubIterator(context.hub, 'block', transactionsOf)),
    addressTransactions: field((args: { address: Hex }, context) =>
      hubIterator(context.hub, 'block', (bundle) =>
        transactionsOf(bundle).filter((tx) => tx.from === args.address || tx.to === args.address || tx.contractAddress === args.address),
      ),
    ),
    tokenTransfers: field((args: { token: Hex }, context) => hubIterator(context.hub, 'block', (bundle) => blockTransfers(context, args.token, bundle))),
  },
};
