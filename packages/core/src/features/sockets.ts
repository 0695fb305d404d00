import type { Principal, Revocation } from '../auth/index.js';
import { ChannelEndpoint, ChannelRegistry, explorerChannels, type ExplorerChannels } from '../channels/index.js';
import type { ResolvedConfig } from '../config.js';
import type { ClusterMember } from '../coordination/cluster.js';
import type { HttpRequest } from '../http/index.js';
import type { ExplorerModule, Signal } from '../modules/index.js';
import type { Services } from '../explorer-services.js';
import { CredentialWatch } from '../sockets/credential-watch.js';
import { SocketGateway } from '../sockets/gateway.js';
import type { SocketEndpoint } from '../sockets/socket-endpoint.js';

/** What the sockets module reads from the modules before it. */
export interface SocketsModuleOptions {
  config: Pick<ResolvedConfig, 'sockets' | 'coordinator' | 'clock'>;
  services: Pick<Services, 'blocks' | 'tokens' | 'labels'>;
  authenticate: (request: HttpRequest) => Promise<Principal | null> | Principal | null;
  clientIp: (request: HttpRequest) => string;
  /** Revoked credentials, whose connections are closed. */
  revoked: Signal<Revocation>;
  cluster: ClusterMember;
  /** Socket endpoints besides the channel protocol's (GraphQL subscriptions). */
  endpoints: readonly SocketEndpoint[];
}

/**
 * WebSocket: the gateway adapters hand upgrades to, the channel protocol at `/ws` (the channels of
 * indexed blocks, those the modules before it contributed, and the library user's own, relayed
 * between instances), and the endpoints of other modules beside it.
 */
export const socketsModule: ExplorerModule<SocketsModuleOptions, { sockets: SocketGateway; channels: ExplorerChannels }> = {
  name: 'sockets',
  register(app, { config, services, authenticate, clientIp, revoked, cluster, endpoints }) {
    const logger = app.logger.child({ module: 'sockets' });
    const { maxSubscriptions, maxReplayBlocks, reorgMemoryBlocks, credentialCheckIntervalMs, ...limits } = config.sockets;
    const credentials = new CredentialWatch({ authenticate, checkIntervalMs: credentialCheckIntervalMs, now: config.clock, logger });
    revoked.listen((revocation) => credentials.revoked(revocation));
    const hubChannels = app.takeChannels();
    const registry = new ChannelRegistry(hubChannels);
    const channelEndpoint = new ChannelEndpoint({
      hub: app.hub,
      blocks: services.blocks,
      tokens: services.tokens,
      labels: services.labels,
      registry,
      hubChannels,
      authenticate,
      credentials,
      limits: { maxSubscriptions, maxReplayBlocks, reorgMemoryBlocks },
      logger: app.logger.child({ module: 'channels' }),
    });
    const sockets = new SocketGateway({ endpoints: [channelEndpoint, ...endpoints], limits, authenticate, clientIp, credentials, logger });
    const channels = explorerChannels(registry, channelEndpoint, config.coordinator ? (message) => cluster.relayChannel(message) : null);
    cluster.onChannel(({ channel, address, blockNumber, data }) => channelEndpoint.publish(channel, address, blockNumber === null ? null : BigInt(blockNumber), data));
    app.onClose(() => {
      sockets.close();
      credentials.close();
    });
    return { sockets, channels };
  },
};
