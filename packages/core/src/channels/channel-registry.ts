import { BLOCK_CHANNELS } from './built-in-channels.js';
import type { ChannelDefinition, CustomChannelOptions } from './channel-definition.js';

const NAME = /^[a-z][a-z0-9_.:-]{0,63}$/i;

/**
 * The channels a connection may subscribe to: those of indexed blocks, those the modules
 * contributed, and those the library user defined since.
 */
export class ChannelRegistry {
  readonly #channels: Map<string, ChannelDefinition>;

  constructor(contributed: readonly ChannelDefinition[]) {
    this.#channels = new Map([...Object.values(BLOCK_CHANNELS), ...contributed].map((channel) => [channel.name, channel]));
  }

  get(name: string): ChannelDefinition | undefined {
    return this.#channels.get(name);
  }

  /** Adds a custom channel; names are unique and never a built-in or contributed one's. */
  define(name: string, options: CustomChannelOptions = {}): ChannelDefinition {
    if (!NAME.test(name)) throw new TypeError(`channel name ${JSON.stringify(name)} must be 1-64 letters, digits, or _ . : - starting with a letter`);
    if (this.#channels.has(name)) throw new TypeError(`channel ${name} is already defined`);
    const definition: ChannelDefinition = { ...options, name, addressed: options.addressed ?? false, replayable: false };
    this.#channels.set(name, definition);
    return definition;
  }
}
