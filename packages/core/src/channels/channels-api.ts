import type { ChannelDefinition, CustomChannelOptions } from './channel-definition.js';
import type { ChannelEndpoint } from './channel-endpoint.js';
import type { ChannelRegistry } from './channel-registry.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Options of {@link ExplorerChannels.publish}. */
export interface ChannelPublishOptions {
  /** The stream of an address-scoped channel (required there, refused elsewhere). */
  address?: string;
  /** The block the data belongs to; default the newest block this instance heard of. */
  blockNumber?: bigint;
}

/** A custom channel message as it travels between instances. */
export interface ChannelBusMessage {
  channel: string;
  address?: string;
  blockNumber: string | null;
  /** The data, already JSON. */
  data: string;
}

/** Channels of your own, served like the built-in ones (`explorer.channels`). */
export interface ExplorerChannels {
  /**
   * Defines a channel clients can subscribe to at `/ws`.
   *
   * @example
   * ```ts
   * explorer.channels.define('whale_alerts', { scope: 'read' });
   * explorer.channels.publish('whale_alerts', { hash, value });
   * ```
   */
  define(name: string, options?: CustomChannelOptions): ChannelDefinition;
  /**
   * Sends `data` (anything `JSON.stringify` takes) to every subscriber of the channel, on this
   * instance and, with a shared coordinator, on every other (there the JSON may be at most
   * {@link MAX_RELAYED_DATA_BYTES} bytes).
   */
  publish(name: string, data: unknown, options?: ChannelPublishOptions): void;
}

/** Largest custom data in bytes that crosses instances (Postgres NOTIFY carries under 8,000). */
export const MAX_RELAYED_DATA_BYTES = 7_000;

/** The library-facing channel API over the endpoint; `relay` hands a publish to the other instances. */
export function explorerChannels(registry: ChannelRegistry, endpoint: ChannelEndpoint, relay: ((message: ChannelBusMessage) => void) | null): ExplorerChannels {
  const defined = new Set<string>();
  return {
    define(name, options) {
      const definition = registry.define(name, options);
      defined.add(name);
      return definition;
    },
    publish(name, data, options = {}) {
      if (!defined.has(name)) throw new TypeError(`channel ${name} is not a defined custom channel: call explorer.channels.define first`);
      const { address } = options;
      if (registry.get(name)!.addressed !== (address !== undefined)) {
        throw new TypeError(address === undefined ? `channel ${name} is address-scoped: pass { address }` : `channel ${name} takes no address`);
      }
      if (address !== undefined && !ADDRESS.test(address)) throw new TypeError('address must be a 0x-prefixed 20-byte hex address');
      const json = JSON.stringify(data);
      if (json === undefined) throw new TypeError('data must be serializable to JSON');
      if (relay && Buffer.byteLength(json) > MAX_RELAYED_DATA_BYTES) {
        throw new RangeError(`channel data is ${Buffer.byteLength(json)} bytes as JSON; at most ${MAX_RELAYED_DATA_BYTES} cross instances`);
      }
      const blockNumber = options.blockNumber ?? endpoint.head;
      const lower = address?.toLowerCase();
      endpoint.publish(name, lower, blockNumber, json);
      relay?.({ channel: name, ...(lower === undefined ? {} : { address: lower }), blockNumber: blockNumber?.toString() ?? null, data: json });
    },
  };
}
