import { execute, GraphQLError, type ExecutionResult, type FormattedExecutionResult, type GraphQLSchema, type OperationTypeNode } from 'graphql';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';
import { HubFeeds } from './hub-feed.js';
import type { EventHub } from '../events/index.js';
import type { Services } from '../explorer-services.js';
import type { PageLimits } from '../modules/graphql-connection.js';
import type { GraphqlContribution } from '../modules/graphql-contribution.js';
import type { GraphqlContext } from './context.js';
import { formatGraphqlError } from './error-format.js';
import { createLoaders } from './loaders.js';
import { createOperationPreparer, RequestRefusal, type DocumentPolicy, type GraphqlRequest, type PreparedOperation } from './operation.js';
import { createGraphqlSchema } from './schema.js';

/** What {@link createGraphqlExecutor} needs: the modules' fields, the services REST uses, and the `graphql` config section. */
export interface GraphqlExecutorOptions {
  /** The fields the modules contributed (the explorer's own are `BUILT_IN_GRAPHQL`). */
  fields: readonly GraphqlContribution[];
  services: Services;
  hub: EventHub;
  logger: Logger;
  policy: DocumentPolicy & PageLimits & { maxBatch: number };
}

/** The schema with its limits, shared by the HTTP route and the `graphql-ws` endpoint. */
export interface GraphqlExecutor {
  readonly schema: GraphQLSchema;
  readonly policy: GraphqlExecutorOptions['policy'];
  /** Parses and validates `request` within the limits; an operation of another kind than `allowed` is refused. */
  prepare(request: GraphqlRequest, allowed: readonly `${OperationTypeNode}`[]): PreparedOperation | RequestRefusal;
  /** Live subscriptions per subscription field. */
  subscriptions(): Record<string, number>;
  /** A fresh resolver context (its own loaders) for `principal`. */
  contextFor(principal: Principal | null): GraphqlContext;
  /** Runs a prepared query and formats its errors. */
  run(prepared: PreparedOperation, request: GraphqlRequest, principal: Principal | null): Promise<FormattedExecutionResult>;
  /** Formats a result's errors (masking the unexpected). */
  format(result: ExecutionResult): FormattedExecutionResult;
}

/**
 * Builds the schema of the modules' fields once and everything that runs operations against it (`createExplorer` does
 * this and mounts it at `/graphql` over HTTP and WebSocket).
 *
 * @example
 * ```ts
 * const executor = createGraphqlExecutor({ fields: BUILT_IN_GRAPHQL, services, hub, logger, policy: config.graphql });
 * const routes = graphqlRoutes(executor);
 * ```
 */
export function createGraphqlExecutor(options: GraphqlExecutorOptions): GraphqlExecutor {
  const { fields, services, hub, logger, policy } = options;
  const schema = createGraphqlSchema(fields);
  const prepareOperation = createOperationPreparer(schema, policy);
  const pages: PageLimits = { maxFirst: policy.maxFirst, defaultFirst: policy.defaultFirst };
  const format = (result: ExecutionResult): FormattedExecutionResult => {
    const formatted: FormattedExecutionResult = result.errors ? { errors: result.errors.map((error) => formatGraphqlError(error, logger)) } : {};
    if ('data' in result) formatted.data = result.data;
    return formatted;
  };
  const feeds = new HubFeeds(hub);
  const contextFor = (principal: Principal | null): GraphqlContext => ({
    services,
    hub,
    feeds,
    loaders: createLoaders(services),
    principal,
    pages,
    logger,
  });
  return {
    schema,
    policy,
    prepare(request, allowed) {
      const prepared = prepareOperation(request);
      if (prepared instanceof RequestRefusal || allowed.includes(`${prepared.operation.operation}`)) return prepared;
      const kind = prepared.operation.operation;
      const where = kind === 'subscription' ? 'subscriptions are served over WebSocket (graphql-ws) at /graphql' : `${kind} operations are not served here`;
      return new RequestRefusal([new GraphQLError(`Cannot run this ${kind}: ${where}`, { extensions: { code: 'OPERATION_NOT_ALLOWED' } })], 'request');
    },
    contextFor,
    subscriptions: () => feeds.counts(),
    async run(prepared, request, principal) {
      const result = await execute({
        schema,
        document: prepared.document,
        operationName: request.operationName,
        variableValues: request.variables,
        contextValue: contextFor(principal),
      });
      return format(result);
    },
    format,
  };
}
