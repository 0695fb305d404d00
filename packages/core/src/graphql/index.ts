export { createGraphqlExecutor, type GraphqlExecutor, type GraphqlExecutorOptions } from './executor.js';
export { graphqlSocketEndpoint, type GraphqlSocketEndpointOptions } from './socket-endpoint.js';
export type { GraphqlContext } from './context.js';
export { BUILT_IN_GRAPHQL, typeDefs as graphqlTypeDefs } from './type-defs.js';
export type { GraphqlContribution } from './contribution.js';
