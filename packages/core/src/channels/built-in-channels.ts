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
