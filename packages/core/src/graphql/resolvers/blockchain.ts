import type { GraphqlContext } from '../context.js';
import { latestBlock } from './query.js';

/** `blockchain { latestBlock networkStats }`: REST's newest block and `/blockchain/stats`. */
export const blockchainResolvers = {
  Blockchain: {
    latestBlock: (_: unknown, __: unknown, context: GraphqlContext) => latestBlock(context),
    networkStats: (_: unknown, __: unknown, context: GraphqlContext) => context.services.networkStats.stats(),
  },
};
