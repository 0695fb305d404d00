import { AddressScalar, BlockNumberScalar, HashScalar } from '../scalars.js';
import { accountResolvers } from './account.js';
import { blockResolvers } from './block.js';
import { blockchainResolvers } from './blockchain.js';
import { contractResolvers } from './contract.js';
import { queryResolvers } from './query.js';
import { searchResolvers } from './search.js';
import { subscriptionResolvers } from './subscription.js';
import { tokenResolvers } from './token.js';
import { transactionResolvers } from './transaction.js';

/** Every resolver of the schema, by type. */
export const resolvers = {
  Address: AddressScalar,
  Hash: HashScalar,
  BlockNumber: BlockNumberScalar,
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
