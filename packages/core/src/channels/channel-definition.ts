import type { Principal } from '../auth/principal.js';
import type { Scope } from '../auth/scopes.js';

/** A subscription request a custom channel's `validate` inspects. */
export interface ChannelSubscribeRequest {
  /** The lowercase address, on address-scoped channels. */
  address?: string;
  /** Who asked; `null` for anonymous. */
  principal: Principal | null;
}

/** How a library user defines a channel with `explorer.channels.define`. */
export interface CustomChannelOptions {
  /** Scope a subscriber must hold (`read`, `write`, `admin`); unset, anyone may subscribe. */
  scope?: Scope;
  /** Subscriptions name an address (`{channel, address}`) and receive what is published for it. */
  addressed?: boolean;
  /** Accepts a subscription (`true`) or refuses it with the error message to send. */
  validate?: (request: ChannelSubscribeRequest) => true | string;
}

/** A channel the protocol serves, built-in or defined by the library user. */
export interface ChannelDefinition extends CustomChannelOptions {
  name: string;
  addressed: boolean;
  /** Its data comes from indexed blocks, so `fromBlock` can replay it from storage. */
  replayable: boolean;
}

/** The key subscriptions to one stream share: the channel, and the address where it has one. */
export function streamKey(channel: string, address?: string): string {
  return address === undefined ? channel : `${channel}:${address}`;
}
