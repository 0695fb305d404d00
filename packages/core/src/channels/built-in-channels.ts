import type { ExplorerEvents } from '../events/explorer-events.js';
import type { ChannelDefinition } from './channel-definition.js';
import type { HubChannel } from './hub-channels.js';

/** The channels of indexed blocks and the pending pool: the channel endpoint's own, replayed from storage where `replayable`. */
export const BLOCK_CHANNELS = {
  blocks: { name: 'blocks', addressed: false, replayable: true },
  transactions: { name: 'transactions', addressed: false, replayable: true },
  addressTransactions: { name: 'address_transactions', addressed: true, replayable: true },
  pendingTransactions: { name: 'pending_transactions', addressed: false, replayable: false },
  tokenTransfers: { name: 'token_transfers', addressed: true, replayable: true },
} as const satisfies Record<string, ChannelDefinition>;

/** The prices module's channel: a token's price as it changes, per token address. */
export const priceChannels: readonly HubChannel[] = [
  {
    name: 'token_price',
    addressed: true,
    replayable: false,
    event: 'tokenPrice',
    message: (price: ExplorerEvents['tokenPrice']) => ({
      address: price.address,
      blockNumber: price.blockNumber,
      data: { address: price.address, priceUSD: price.priceUSD, change24h: price.change24h, timestamp: price.timestamp.toString() },
      blockHash: price.blockHash,
    }),
  },
];

/** The consensus module's channels: validators' records, the consensus state, finality. */
export const consensusChannels: readonly HubChannel[] = [
  { name: 'validators', addressed: false, replayable: false, event: 'validators', message: (data: unknown, head: bigint | null) => ({ blockNumber: head, data }) },
  { name: 'consensus', addressed: false, replayable: false, event: 'consensus', message: (data: unknown, head: bigint | null) => ({ blockNumber: head, data }) },
  {
    name: 'finality',
    addressed: false,
    replayable: false,
    event: 'finality',
    message: (finality: ExplorerEvents['finality']) => ({ blockNumber: BigInt(finality.blockNumber), data: finality }),
  },
];

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
