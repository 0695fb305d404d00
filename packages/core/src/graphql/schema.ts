import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers/index.js';
import { typeDefs } from './type-defs.js';

/** The explorer's GraphQL schema with its resolvers; resolvers expect a `GraphqlContext`. */
export function createGraphqlSchema(): GraphQLSchema {
  return makeExecutableSchema({ typeDefs, resolvers });
}
