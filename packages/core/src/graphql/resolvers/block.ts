import type { BlockRecord } from '../../services/format.js';
import type { Hex } from '../../storage/index.js';
import { sliceConnection, type ConnectionArgs } from '../../modules/graphql-connection.js';
import type { GraphqlContext } from '../context.js';

/** A block is REST's block record; its transactions are a connection over its hashes. */
export const blockResolvers = {
  Block: {
    number: (block: BlockRecord) => block.blockNumber,
    async transactions(block: BlockRecord, args: ConnectionArgs, context: GraphqlContext) {
      const page = sliceConnection(block.transactions as Hex[], args, context.pages);
      const nodes = await context.loaders.transactions.loadMany(page.edges.map((edge) => edge.node));
      return {
        ...page,
        edges: page.edges.map((edge, i) => {
          const node = nodes[i];
          if (node instanceof Error) throw node;
          return { cursor: edge.cursor, node };
        }),
      };
    },
  },
};
