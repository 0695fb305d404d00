import { BUILT_IN_CHANNELS, type ChannelDefinition, type CustomChannelOptions } from './channel-definition.js';

const NAME = /^[a-z][a-z0-9_.:-]{0,63}$/i;

/** The channels a connection may subscribe to: the nine built-in ones and those defined since. */
export class ChannelRegistry {
  readonly #channels = new Map<string, ChannelDefinition>(BUILT_IN_CHANNELS.map((channel) => [channel.name, channel]));

  get(name: string): ChannelDefinition | undefined {
    return this.#channels.get(name);
  }

  /** Adds a custom channel; names are unique and never a built-in one's. */
  define(name: string, options: CustomChannelOptions = {}): ChannelDefinition {
    if (!NAME.test(name)) throw new TypeError(`channel name ${JSON.stringify(name)} must be 1-64 letters, digits, or _ . : - starting with a letter`);
    if (this.#channels.has(name)) throw new TypeError(`channel ${name} is already defined`);
    const definition: ChannelDefinition = { ...options, name, addressed: options.addressed ?? false, replayable: false };
    this.#channels.set(name, definition);
    return definition;
  }
}
