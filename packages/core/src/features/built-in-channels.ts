import { BLOCK_CHANNELS, consensusChannels } from '../channels/built-in-channels.js';
import type { ChannelDefinition } from '../channels/index.js';
import { priceChannels } from './prices/prices-module.js';

const definition = ({ name, addressed, replayable }: ChannelDefinition): ChannelDefinition => ({ name, addressed, replayable });
const [validators, consensus, finality] = consensusChannels.map(definition) as [ChannelDefinition, ChannelDefinition, ChannelDefinition];

/** The nine channels of `decisions.md`: the endpoint's own and those the prices and consensus modules contribute. */
export const BUILT_IN_CHANNELS: readonly ChannelDefinition[] = [
  BLOCK_CHANNELS.blocks,
  validators,
  consensus,
  finality,
  BLOCK_CHANNELS.transactions,
  BLOCK_CHANNELS.addressTransactions,
  BLOCK_CHANNELS.pendingTransactions,
  BLOCK_CHANNELS.tokenTransfers,
  ...priceChannels.map(definition),
];
