export type { ChannelDefinition, ChannelSubscribeRequest, CustomChannelOptions } from './channel-definition.js';
export type { HubChannel, HubChannelMessage } from './hub-channels.js';
export { ChannelRegistry } from './channel-registry.js';
export { ChannelEndpoint, type ChannelEndpointOptions, type ChannelLimits } from './channel-endpoint.js';
export { explorerChannels, MAX_RELAYED_DATA_BYTES, type ChannelBusMessage, type ChannelPublishOptions, type ExplorerChannels } from './channels-api.js';
