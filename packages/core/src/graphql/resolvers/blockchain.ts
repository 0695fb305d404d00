import type { ConsensusInfoRecord } from '../../consensus/consensus-records.js';
import type { GraphqlContext } from '../context.js';
import { latestBlock } from './query.js';

/** `blockchain { latestBlock tracedBlock validators consensus networkStats }`: REST's `/blockchain/*` records and how far traces are read. */
export const blockchainResolvers = {
  Blockchain: {
    latestBlock: (_: unknown, __: unknown, context: GraphqlContext) => latestBlock(context),
    tracedBlock: async (_: unknown, __: unknown, context: GraphqlContext) => (await context.services.health.tracedBlock())?.toString() ?? null,
    validators: async (_: unknown, __: unknown, context: GraphqlContext) => (await context.services.consensus.validatorSet()).validators,
    consensus: (_: unknown, __: unknown, context: GraphqlContext) => context.services.consensus.consensusInfo(),
    networkStats: (_: unknown, __: unknown, context: GraphqlContext) => context.services.networkStats.stats(),
  },
  Consensus: {
    algorithm: (info: ConsensusInfoRecord) => info.consensusAlgorithm,
  },
};
