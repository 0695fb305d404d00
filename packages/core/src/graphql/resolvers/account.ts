import { UnauthorizedError } from '../../errors/index.js';
import type { Hex } from '../../storage/index.js';
import { connectionOf, type ConnectionArgs } from '../../modules/graphql-connection.js';
import type { GraphqlContext } from '../context.js';

/**
 * An address's balance, label, transactions (newest first), tokens, NFTs, token transfers and
 * delegation, from the service calls REST's `/account/*` make, and, for callers with credentials,
 * its summary.
 */
export const accountResolvers = {
  Account: {
    balance: async (account: { address: Hex }, _: unknown, context: GraphqlContext) => (await context.services.accounts.weiBalance(account.address)).balance,
    label: (account: { address: Hex }, _: unknown, context: GraphqlContext) => context.loaders.labels.load(account.address),
    transactions: (account: { address: Hex }, args: ConnectionArgs, context: GraphqlContext) =>
      connectionOf(args, context.pages, (page, offset) => context.services.accounts.transactions({ address: account.address, page, offset, sort: 'desc' })),
    summary(account: { address: Hex }, _: unknown, context: GraphqlContext) {
      // REST's `/account/summary` is for callers with a JWT or an API key: the same here.
      if (context.principal === null) throw new UnauthorizedError();
      return context.services.accounts.summary(account.address);
    },
    tokens: (account: { address: Hex }, args: ConnectionArgs, context: GraphqlContext) =>
      connectionOf(args, context.pages, (page, offset) => context.services.tokens.holdings(account.address, page, offset)),
    nfts: (account: { address: Hex }, args: ConnectionArgs, context: GraphqlContext) =>
      connectionOf(args, context.pages, (page, offset) => context.services.nfts.ofOwner({ owner: account.address, page, offset })),
    tokenTransfers: (account: { address: Hex }, args: ConnectionArgs, context: GraphqlContext) =>
      connectionOf(args, context.pages, (page, offset) => context.services.tokens.accountTransfers({ address: account.address, page, offset, sort: 'desc' })),
    delegation: (account: { address: Hex }, _: unknown, context: GraphqlContext) => context.services.delegations.delegation(account.address),
  },
};
