import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';
import { formatPending } from '../services/format.js';
import type { BlockService } from '../services/block-service.js';
import type { LabelLookup } from '../services/address-labels.js';
import type { TokenService } from '../services/token-service.js';
import type { BlockTag } from '../values/block-tag.js';
import type { HttpRequest } from '../http/types.js';
import type { CredentialWatch } from '../sockets/credential-watch.js';
import type { SocketAdmission, SocketEndpoint } from '../sockets/socket-endpoint.js';
import type { SocketLike } from '../sockets/socket-like.js';
import type { BlockBundle } from '../storage/index.js';
import { blockMessages, blockSummaryMessage, tokenTransferMessages, type Addressed } from './block-messages.js';
import type { ChannelRegistry } from './channel-registry.js';
import type { HubChannel } from './hub-channels.js';
import { ChannelSession } from './channel-session.js';
import type { ReorgEvent } from '../events/explorer-events.js';
import type { EventHub } from '../events/hub.js';
import { outgoing, type Outgoing } from './outgoing.js';
import type { Subscription } from './subscription.js';

/** Limits of the channel protocol (config `sockets`). */
export interface ChannelLimits {
  maxSubscriptions: number;
  maxReplayBlocks: number;
  reorgMemoryBlocks: number;
}

/** What the channel endpoint needs. */
export interface ChannelEndpointOptions {
  hub: EventHub;
  /** Stored blocks, for replays from `fromBlock`. */
  blocks: BlockService;
  tokens: TokenService;
  /** Labels of the addresses transactions name. */
  labels: LabelLookup;
  registry: ChannelRegistry;
  /** The channels of hub events the modules contributed (prices, consensus). */
  hubChannels: readonly HubChannel[];
  /** The authenticator REST uses, for `{event: 'auth'}` messages. */
  authenticate: (request: HttpRequest) => Promise<Principal | null> | Principal | null;
  /** Binds a connection to the credentials an `auth` message proved (the gateway's watch). */
  credentials: CredentialWatch;
  limits: ChannelLimits;
  logger: Logger;
}

/**
 * The channel protocol at `/ws` (decisions.md): sessions subscribe to streams, and hub events
 * become data messages, each serialized once and sent to every subscriber of its stream.
 */
export class ChannelEndpoint implements SocketEndpoint {
  readonly path = '/ws';
  readonly #streams = new Map<string, Set<Subscription>>();
  readonly #perChannel = new Map<string, number>();
  /** The hub channels by name; each listens to its event while it has subscribers. */
  readonly #hubChannels: ReadonlyMap<string, HubChannel>;
  readonly #onDemand = new Map<string, (event: never) => void>();
  /** The newest block heard of: the block number of messages that come from no block. */
  #head: bigint | null = null;
  /** A block's transactions (with their labels) and token transfers are read from storage: one block after the other, in order. */
  #blockData: Promise<void> = Promise.resolve();
  /** Hashes of blocks recent reorgs removed: their data read meanwhile is not sent. */
  readonly #removed = new Set<string>();

  constructor(readonly options: ChannelEndpointOptions) {
    const { hub } = options;
    this.#hubChannels = new Map(options.hubChannels.map((channel) => [channel.name, channel]));
    hub.on('block', (bundle) => this.#onBlock(bundle));
    hub.on('reorg', (event) => this.#onReorg(event));
    hub.on('pendingTransaction', (tx) => {
      if (this.#streams.has('pending_transactions')) this.publish('pending_transactions', undefined, this.#head, JSON.stringify(formatPending(tx)));
    });
  }

  open(socket: SocketLike, admission: SocketAdmission): void {
    new ChannelSession(socket, admission, this).listen();
  }

  /** The newest block heard of (`null` before the first). */
  get head(): bigint | null {
    return this.#head;
  }

  /** Subscriptions per channel. */
  stats(): Record<string, number> {
    return Object.fromEntries(this.#perChannel);
  }

  /** Sends a data message to every subscriber of the stream `channel` (and `address`). */
  publish(channel: string, address: string | undefined, blockNumber: bigint | null, dataJson: string, blockHash?: string): void {
    const key = address === undefined ? channel : `${channel}:${address}`;
    if (this.#streams.has(key)) this.#broadcast({ key, message: outgoing(channel, address, blockNumber, dataJson, blockHash) });
  }

  /** Adds a subscription to its stream (and starts the hub events its channel needs). */
  add(subscription: Subscription): void {
    let stream = this.#streams.get(subscription.key);
    if (!stream) this.#streams.set(subscription.key, (stream = new Set()));
    stream.add(subscription);
    const name = subscription.channel.name;
    const count = (this.#perChannel.get(name) ?? 0) + 1;
    this.#perChannel.set(name, count);
    const hubChannel = this.#hubChannels.get(name);
    if (count === 1 && hubChannel) this.#listen(hubChannel);
  }

  remove(subscription: Subscription): void {
    const stream = this.#streams.get(subscription.key);
    if (!stream?.delete(subscription)) return;
    if (stream.size === 0) this.#streams.delete(subscription.key);
    const name = subscription.channel.name;
    const count = (this.#perChannel.get(name) ?? 1) - 1;
    if (count > 0) {
      this.#perChannel.set(name, count);
      return;
    }
    this.#perChannel.delete(name);
    const listener = this.#onDemand.get(name);
    if (listener) this.options.hub.off(this.#hubChannels.get(name)!.event, listener as never);
    this.#onDemand.delete(name);
  }

  /**
   * Sends a block-derived subscription what storage holds from `fromBlock` to the indexed head,
   * then what arrived live meanwhile (held back by the subscription, so nothing is missed, and
   * blocks the replay sent are not sent twice). `latest` replays the indexed head alone (nothing,
   * before anything is indexed). Resolves an error message instead when the range is too long;
   * `ack` is called just before the first replayed message.
   */
  async replay(subscription: Subscription, fromBlock: BlockTag, ack: () => void, open: () => boolean): Promise<string | null> {
    subscription.deferred = [];
    subscription.replayed = new Set();
    try {
      const head = (await this.options.blocks.storedHead()) ?? -1n;
      // The head this replay reads through is the one `latest` names, so the two cannot disagree.
      const from = fromBlock === 'latest' ? (head < 0n ? 0n : head) : fromBlock;
      if (head - from + 1n > BigInt(this.options.limits.maxReplayBlocks)) {
        return `fromBlock is more than ${this.options.limits.maxReplayBlocks} blocks behind the indexed head (${head})`;
      }
      ack();
      const wanted = (key: string) => key === subscription.key;
      for (let number = from; number <= head && open(); number++) {
        const bundle = await this.options.blocks.bundle(number);
        // Rolled back since the cursor was read: the held-back reorg and new blocks follow.
        if (!bundle) break;
        const messages =
          subscription.channel.name === 'token_transfers'
            ? await tokenTransferMessages(bundle, this.options.tokens, wanted)
            : await blockMessages(bundle, head, wanted, this.options.labels);
        for (const { message } of messages) subscription.sendData(message);
        subscription.replayed.add(bundle.block.hash);
      }
      return null;
    } finally {
      subscription.goLive();
    }
  }

  #broadcast({ key, message }: { key: string; message: Outgoing }): void {
    const stream = this.#streams.get(key);
    if (stream) for (const subscription of stream) subscription.deliver(message);
  }

  #onBlock(bundle: BlockBundle): void {
    this.#head = bundle.block.number;
    if (this.#streams.size === 0) return;
    const wanted = (key: string) => this.#streams.has(key);
    if (wanted('blocks')) this.#broadcast(blockSummaryMessage(bundle));
    const transactions = this.#streams.has('transactions') || this.#perChannel.has('address_transactions');
    const transfers = this.#perChannel.has('token_transfers');
    if (!transactions && !transfers) return;
    const dataStream = (key: string) => key !== 'blocks' && wanted(key);
    this.#blockData = this.#blockData.then(async () => {
      let messages: Addressed[];
      try {
        messages = [
          ...(transactions ? await blockMessages(bundle, bundle.block.number, dataStream, this.options.labels) : []),
          ...(transfers ? await tokenTransferMessages(bundle, this.options.tokens, wanted) : []),
        ];
      } catch (error) {
        this.options.logger.warn({ err: error, block: bundle.block.number }, 'the transactions or token transfers of a block could not be read; their messages are skipped');
        return;
      }
      if (this.#removed.has(bundle.block.hash)) return;
      for (const message of messages) this.#broadcast(message);
    });
  }

  #onReorg({ commonAncestor, removedBlockHashes }: ReorgEvent): void {
    this.#head = commonAncestor.blockNumber;
    // Remembered while data of earlier blocks may still be read (a bounded few).
    if (this.#removed.size > 10_000) this.#removed.clear();
    for (const hash of removedBlockHashes) this.#removed.add(hash);
    const notice = JSON.stringify({
      event: 'reorg',
      channel: 'blocks',
      data: { commonAncestor: { blockNumber: commonAncestor.blockNumber.toString(), blockHash: commonAncestor.blockHash }, removedBlockHashes },
    });
    for (const stream of this.#streams.values()) {
      for (const subscription of stream) {
        subscription.reorg(removedBlockHashes, subscription.channel.name === 'blocks' ? notice : null);
      }
    }
  }

  #listen(channel: HubChannel): void {
    const listener = (event: never) => {
      const { address, blockNumber, data, blockHash } = channel.message(event, this.#head);
      this.publish(channel.name, address, blockNumber, JSON.stringify(data), blockHash);
    };
    this.#onDemand.set(channel.name, listener);
    this.options.hub.on(channel.event, listener as never);
  }
}
