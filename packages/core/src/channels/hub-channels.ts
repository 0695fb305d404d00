import type { ExplorerEvents } from '../events/explorer-events.js';
import type { ChannelDefinition } from './channel-definition.js';

/** What one hub event sends on its channel. */
export interface HubChannelMessage {
  /** The stream's address, on an addressed channel. */
  address?: string;
  /** The block the data belongs to. */
  blockNumber: bigint | null;
  /** Anything `JSON.stringify` takes. */
  data: unknown;
  /** The block's hash, where a reorg that removes the block must re-send the message `removed`. */
  blockHash?: string;
}

/**
 * A channel fed by one event of the hub, listened to only while the channel has subscribers (the
 * publishers behind these events work only then). A module contributes it with `app.channel()`;
 * the channels of indexed blocks are the channel endpoint's own.
 */
export interface HubChannel<E extends keyof ExplorerEvents = keyof ExplorerEvents> extends ChannelDefinition {
  readonly event: E;
  /** The message of one event; `head` is the newest block the endpoint heard of. */
  message(event: ExplorerEvents[E], head: bigint | null): HubChannelMessage;
}
