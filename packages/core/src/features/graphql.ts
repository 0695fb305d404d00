import { graphqlRoutes } from '../api/graphql.js';
import type { ResolvedConfig } from '../config.js';
import { createGraphqlExecutor, graphqlSocketEndpoint } from '../graphql/index.js';
import type { ExplorerModule } from '../modules/index.js';
import type { Services } from '../explorer-services.js';
import type { SocketEndpoint } from '../sockets/socket-endpoint.js';

/**
 * GraphQL over HTTP at `/graphql`, and its subscriptions over WebSocket (`graphql-ws`) at the same
 * path: the schema of the fields the modules registered before it contributed.
 */
export const graphqlModule: ExplorerModule<{ config: Pick<ResolvedConfig, 'graphql' | 'sockets'>; services: Services }, { socketEndpoint: SocketEndpoint }> = {
  name: 'graphql',
  register(app, { config, services }) {
    const logger = app.logger.child({ module: 'graphql' });
    const graphql = createGraphqlExecutor({ fields: app.takeGraphql(), services, hub: app.hub, logger, policy: config.graphql });
    app.route(...graphqlRoutes(graphql));
    return { socketEndpoint: graphqlSocketEndpoint(graphql, { maxSubscriptions: config.sockets.maxSubscriptions, logger }) };
  },
};
