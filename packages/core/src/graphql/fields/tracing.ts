import type { GraphqlContribution } from '../../modules/graphql-contribution.js';
import type { GraphqlContext } from '../context.js';

/** The indexing module's field: how far call traces are read behind the blocks. */
export const tracingFields: GraphqlContribution = {
  typeDefs: /* GraphQL */ `
extend type Blockchain {
  "The block through which every indexed block's call traces (internal transactions, contracts created inside transactions, their creators) are stored: they are read behind the blocks. Null before the first block is traced and where the node does not trace."
  tracedBlock: String
}
`,
  resolvers: {
    Blockchain: {
      tracedBlock: async (_: unknown, __: unknown, context: GraphqlContext) => (await context.services.health.tracedBlock())?.toString() ?? null,
    },
  },
};
