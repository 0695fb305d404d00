export { createGraphqlExecutor, type GraphqlExecutor, type GraphqlExecutorOptions } from './executor.js';
export { graphqlSocketEndpoint, type GraphqlSocketEndpointOptions } from './socket-endpoint.js';
export type { GraphqlContext } from './context.js';
export type { GraphqlContribution } from '../modules/graphql-contribution.js';
