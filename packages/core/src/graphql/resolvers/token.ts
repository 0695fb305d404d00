import { TokenNotFoundError } from '../../errors/index.js';
import type { TokenHolderRecord, TokenListItem, TokenRecord, TokenTransferRecord } from '../../services/token-service.js';
import type { Hex } from '../../storage/index.js';
import { connectionOf, type ConnectionArgs } from '../../modules/graphql-connection.js';
import type { GraphqlContext } from '../context.js';
import { orNull } from '../../services/or-null.js';

/** A token transfer record, with the token it moved (REST's record leaves that to the URL). */
export type TransferNode = TokenTransferRecord & { tokenAddress: Hex };

/** Tokens are REST's Token record; holders, transfers and an NFT collection's inventory come from the same service calls as REST's. */
export const tokenResolvers = {
  Token: {
    holders: (token: TokenRecord) => ({ address: token.address }),
    transfers: (token: TokenRecord, args: ConnectionArgs, context: GraphqlContext) =>
      connectionOf(args, context.pages, async (page, offset): Promise<TransferNode[]> => {
        const transfers = await context.services.tokens.transfers({ token: token.address as Hex, page, offset, sort: 'desc' });
        return transfers.map((transfer) => ({ ...transfer, tokenAddress: token.address as Hex }));
      }),
    // REST's inventory is 404 for an ERC-20 token; here the field is null, as unknown records are.
    inventory: (token: TokenRecord, args: ConnectionArgs, context: GraphqlContext) =>
      orNull(
        connectionOf(args, context.pages, (page, offset) => context.services.nfts.ofCollection({ token: token.address as Hex, page, offset })),
        TokenNotFoundError,
      ),
  },
  TokenHolders: {
    // The first page of ten is REST's `holders?page=1&offset=10`: its total comes with it.
    total: async (holders: { address: Hex }, _: unknown, context: GraphqlContext) => (await topTen(holders.address, context)).total,
    top10: async (holders: { address: Hex }, _: unknown, context: GraphqlContext) => (await topTen(holders.address, context)).holders,
  },
  TokenHolder: {
    account: (holder: TokenHolderRecord) => ({ address: holder.address }),
  },
  TokenTransfer: {
    transactionHash: (transfer: TransferNode) => transfer.hash,
    token: (transfer: TransferNode, _: unknown, context: GraphqlContext) => orNull(context.services.tokens.token(transfer.tokenAddress), TokenNotFoundError),
    transaction: (transfer: TransferNode, _: unknown, context: GraphqlContext) => context.loaders.transactions.load(transfer.hash as Hex),
  },
  TokenListItem: {
    token: (item: TokenListItem, _: unknown, context: GraphqlContext) => orNull(context.services.tokens.token(item.address as Hex), TokenNotFoundError),
  },
};

/** The ten largest holders of a token, read once per request however many fields ask. */
function topTen(address: Hex, context: GraphqlContext) {
  return context.loaders.topHolders.load(address);
}
