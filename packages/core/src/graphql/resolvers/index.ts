import { accountResolvers } from './account.js';
import { blockResolvers } from './block.js';
import { blockchainResolvers } from './blockchain.js';
import { contractResolvers } from './contract.js';
import { queryResolvers } from './query.js';
import { searchResolvers } from './search.js';
import { subscriptionResolvers } from './subscription.js';
import { tokenResolvers } from './token.js';
import { transactionResolvers } from './transaction.js';

/** The resolvers of the chain module's fields, by type. */
export const chainResolvers = {
  ...queryResolvers,
  ...blockchainResolvers,
  ...blockResolvers,
  ...transactionResolvers,
  ...accountResolvers,
  ...tokenResolvers,
  ...contractResolvers,
  ...searchResolvers,
  ...subscriptionResolvers,
};
