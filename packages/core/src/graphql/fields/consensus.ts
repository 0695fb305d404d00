import type { ConsensusInfoRecord } from '../../consensus/consensus-records.js';
import type { GraphqlContribution } from '../../modules/graphql-contribution.js';
import type { GraphqlContext } from '../context.js';

/** The consensus module's fields: the validators and the consensus of REST's `/blockchain/*`. */
export const consensusFields: GraphqlContribution = {
  typeDefs: /* GraphQL */ `
extend type Blockchain {
  validators: [Validator!]!
  consensus: Consensus!
}

type Validator {
  address: Address!
  "The validator's public label; null without one."
  label: String
  votingPower: String
  proposerPriority: String
  isActive: Boolean!
  "Percent of its expected blocks it produced."
  uptime: Float
  totalBlocks: Int!
  missedBlocks: Int
  commission: String
  stakingAmount: String
}

type Consensus {
  algorithm: String
  blockTime: Int
  epoch: Int
  epochBlocks: Int
  currentBlock: Int!
  currentValidator: Address
  totalStaked: String
}
`,
  resolvers: {
    Blockchain: {
      validators: async (_: unknown, __: unknown, context: GraphqlContext) => (await context.services.consensus.validatorSet()).validators,
      consensus: (_: unknown, __: unknown, context: GraphqlContext) => context.services.consensus.consensusInfo(),
    },
    Consensus: {
      algorithm: (info: ConsensusInfoRecord) => info.consensusAlgorithm,
    },
  },
};
