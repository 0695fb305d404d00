import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type { GraphqlContribution } from '../modules/graphql-contribution.js';
import { rootFields } from './fields/root.js';

/**
 * The schema the modules' contributions make together, over the scalars and root types they
 * extend; resolvers expect a `GraphqlContext`.
 */
export function createGraphqlSchema(contributions: readonly GraphqlContribution[]): GraphQLSchema {
  const parts = [rootFields, ...contributions];
  return makeExecutableSchema({ typeDefs: parts.map((part) => part.typeDefs), resolvers: parts.map((part) => part.resolvers) });
}
