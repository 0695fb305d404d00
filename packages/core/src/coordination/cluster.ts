import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Revocation } from '../auth/revocation.js';
import type { ChannelBusMessage } from '../channels/channels-api.js';
import type { EventHub, ReorgEvent } from '../events/index.js';
import type { TraceSupport } from '../indexer/block-tracer.js';
import type { Indexer } from '../indexer/indexer.js';
import { Alarm, sleep } from '../indexer/sleep.js';
import type { BlockBundle, BlockReader, ChainCursors, Hex, StorageLifecycle } from '../storage/index.js';
import type { Coordinator } from './coordinator.js';

/**
 * What travels on the bus: references, since storage holds the data. A reorg's removed hashes
 * are no longer in storage, so they travel themselves, split over several messages (`more` on
 * all but the last) to stay within the coordinator's message size. A custom channel's publish
 * travels whole (its size is checked where it is published), and so does a revocation (an id).
 * A block carries whether the indexing instance's node traces (`traces`), which only an instance
 * that traces learns; `traced` tells that traces were written through a block.
 */
type BusMessage =
  | { origin: string; type: 'block'; number: string; traces?: TraceSupport }
  | { origin: string; type: 'traced'; number: string }
  | { origin: string; type: 'reorg'; ancestorNumber: string; ancestorHash: Hex; removed: Hex[]; more?: true }
  | ({ origin: string; type: 'channel' } & ChannelBusMessage)
  | ({ origin: string; type: 'revocation'; notice?: string } & Revocation)
  | { origin: string; type: 'labels' }
  | { origin: string; type: 'verified'; address: Hex };

/**
 * Tells every instance on `coordinator` that block `number` was written, as the indexing instance
 * does: for a writer outside any explorer (a bulk loader, a custom indexer), which holds the
 * coordinator's lease while it writes so that no instance indexes meanwhile. Each instance reads
 * the block from storage and hears it as its own indexer's.
 */
export function announceBlock(coordinator: Coordinator, number: bigint): Promise<void> {
  const message: BusMessage = { origin: 'external-writer', type: 'block', number: number.toString() };
  return coordinator.publish(JSON.stringify(message));
}

/** Longest an announced block is awaited on read replicas behind the writer. */
const REPLICA_WAIT_MS = 60_000;

/** Longest a revocation waits to hear its own notice back from the bus before it is answered. */
const ECHO_WAIT_MS = 1_000;

/** Removed hashes per reorg message: 100 × 69 bytes keeps it well under 7,900 bytes. */
const HASHES_PER_MESSAGE = 100;

/**
 * This instance's part in a cluster: it indexes while it holds the lease (trying to take it
 * every `leaseRetryMs`), publishes what its indexer writes, and replays what the indexing
 * instance publishes onto its own hub, rebuilt from storage, in publish order.
 */
export class ClusterMember {
  private readonly id = randomUUID();
  private readonly alarm = new Alarm();
  private readonly abort = new AbortController();
  private loop: Promise<void> | null = null;
  private relay: Promise<void> = Promise.resolve();
  /** Removed hashes of a reorg whose last message has not arrived yet, by origin. */
  private readonly partialReorgs = new Map<string, Hex[]>();
  private channelListener: ((message: ChannelBusMessage) => void) | null = null;
  private revocationListener: ((revocation: Revocation) => void) | null = null;
  /** This instance's revocation notices not heard back from the bus yet, by notice id. */
  private readonly unheard = new Map<string, () => void>();
  private labelsListener: (() => void) | null = null;
  private relayedTraceSupport: TraceSupport = 'unknown';

  constructor(
    private readonly coordinator: Coordinator,
    private readonly indexer: Indexer,
    private readonly storage: StorageLifecycle & BlockReader & ChainCursors,
    private readonly hub: EventHub,
    private readonly logger: Logger,
    private readonly leaseRetryMs: number,
  ) {}

  /** Starts relaying events and, when `index` is set, competing for the indexer lease. */
  async start(index: boolean): Promise<void> {
    this.hub.on('block', (bundle) => {
      if (!this.indexer.status.running) return;
      const traces = this.indexer.status.tracing?.support;
      void this.send({ origin: this.id, type: 'block', number: bundle.block.number.toString(), ...(traces ? { traces } : {}) });
    });
    this.hub.on('traced', ({ blockNumber }) => {
      if (this.indexer.status.running) void this.send({ origin: this.id, type: 'traced', number: blockNumber.toString() });
    });
    this.hub.on('reorg', (event) => {
      if (!this.indexer.status.running) return;
      void this.sendReorg(event);
    });
    await this.coordinator.subscribe((text) => {
      // A revocation is heard at once, not after the blocks before it are replayed: its order
      // with them does not matter, and a revoked key must stop working as soon as it can.
      let message: BusMessage;
      try {
        message = JSON.parse(text) as BusMessage;
      } catch (error) {
        this.logger.warn({ err: error }, 'could not replay a cluster event');
        return;
      }
      if (message.type === 'revocation') return this.revoked(message);
      this.relay = this.relay.then(() => this.receive(message)).catch((error: unknown) => this.logger.warn({ err: error }, 'could not replay a cluster event'));
    });
    if (index) this.loop = this.competeForLease();
  }

  /**
   * Whether the node traces blocks, as the indexing instance last told (with each block it
   * relays); `unknown` until one told. An instance that does not index never traces, so this is
   * how it learns whether block data waits for traces.
   */
  get traceSupport(): TraceSupport {
    return this.relayedTraceSupport;
  }

  /** Sends a custom channel's publish to the other instances. */
  relayChannel(message: ChannelBusMessage): void {
    void this.send({ origin: this.id, type: 'channel', ...message });
  }

  /** Calls `listener` with every custom channel publish another instance relays. */
  onChannel(listener: (message: ChannelBusMessage) => void): void {
    this.channelListener = listener;
  }

  /**
   * Tells the other instances that credentials stopped holding or changed (a key revoked, a user
   * deactivated). Resolves once this instance hears its own notice back from the bus, which the
   * others hear at about the same moment, so a change is answered only when the cluster knows of
   * it; or after {@link ECHO_WAIT_MS} (a notice that could not be published is logged, not thrown).
   */
  async relayRevocation(revocation: Revocation): Promise<void> {
    const notice = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve) => {
      this.unheard.set(notice, resolve);
      timer = setTimeout(resolve, ECHO_WAIT_MS);
    });
    try {
      await this.send({ origin: this.id, type: 'revocation', notice, ...revocation });
      await heard;
    } finally {
      clearTimeout(timer);
      this.unheard.delete(notice);
    }
  }

  /** Calls `listener` with every revocation another instance relays. */
  onRevocation(listener: (revocation: Revocation) => void): void {
    this.revocationListener = listener;
  }

  /** Tells the other instances that address labels changed (their caches of labels and answers start afresh). */
  relayLabels(): void {
    void this.send({ origin: this.id, type: 'labels' });
  }

  /** Calls `listener` whenever another instance relays a label change. */
  onLabels(listener: () => void): void {
    this.labelsListener = listener;
  }

  /** Tells the other instances that a contract's verified source was stored; each hears it as a `verified` hub event. */
  relayVerified(address: Hex): void {
    void this.send({ origin: this.id, type: 'verified', address });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.alarm.ring();
    await this.loop;
    await this.indexer.stop();
    await this.coordinator.close();
    await this.relay;
  }

  private async competeForLease(): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        if (this.indexer.status.running && !this.coordinator.holdsLease()) {
          this.logger.warn('indexer lease lost; stopping indexing');
          await this.indexer.stop();
          // Sit out one round: a peer whose connection did not just drop gets the first chance.
          await this.alarm.sleep(this.leaseRetryMs, this.abort.signal);
          if (this.abort.signal.aborted) break;
        }
        if (!this.indexer.status.running && (await this.coordinator.acquireLease()) && !this.abort.signal.aborted) {
          this.logger.info('this instance holds the indexer lease and indexes');
          this.indexer.start();
        }
      } catch (error) {
        this.logger.warn({ err: error }, 'indexer lease check failed');
      }
      await this.alarm.sleep(this.leaseRetryMs, this.abort.signal);
    }
  }

  private async send(message: BusMessage): Promise<void> {
    try {
      await this.coordinator.publish(JSON.stringify(message));
    } catch (error) {
      this.logger.warn({ err: error }, 'could not publish a cluster event');
    }
  }

  private async sendReorg({ commonAncestor, removedBlockHashes }: ReorgEvent): Promise<void> {
    const reference = { origin: this.id, type: 'reorg', ancestorNumber: commonAncestor.blockNumber.toString(), ancestorHash: commonAncestor.blockHash } as const;
    for (let start = 0; ; start += HASHES_PER_MESSAGE) {
      const end = start + HASHES_PER_MESSAGE;
      const last = end >= removedBlockHashes.length;
      await this.send({ ...reference, removed: removedBlockHashes.slice(start, end), ...(last ? {} : { more: true as const }) });
      if (last) return;
    }
  }

  /**
   * The bundle of a block the bus announced, once the storage this instance reads has it: read
   * replicas may be behind the writer, so it waits for them (up to a minute); `null` when the
   * block is not there when storage has reached its number (a reorg removed it).
   */
  private async announced(number: bigint): Promise<BlockBundle | null> {
    const deadline = Date.now() + REPLICA_WAIT_MS;
    for (let wait = 10; ; wait = Math.min(wait * 2, 500)) {
      // The cursor first: a replica that replays the block between the two reads would
      // otherwise show a cursor past a block it had not had, which reads as a removed block.
      const cursor = this.storage.primary === undefined ? null : await this.storage.getCursor();
      const bundle = await this.storage.getBlockBundle(number);
      if (bundle || this.storage.primary === undefined) return bundle;
      if ((cursor !== null && cursor.number >= number) || this.abort.signal.aborted) return null;
      if (Date.now() > deadline) {
        this.logger.warn({ block: number.toString() }, 'the read replica did not reach an announced block within a minute: its events are skipped');
        return null;
      }
      await sleep(wait, this.abort.signal);
    }
  }

  /** Another instance's revocation, told to the listener at once; this instance's own, heard back. */
  private revoked(message: Extract<BusMessage, { type: 'revocation' }>): void {
    if (message.origin === this.id) this.unheard.get(message.notice ?? '')?.();
    else this.revocationListener?.('keyId' in message ? { keyId: message.keyId } : { userId: message.userId });
  }

  private async receive(message: Exclude<BusMessage, { type: 'revocation' }>): Promise<void> {
    if (message.origin === this.id) return;
    if (message.type === 'channel') {
      const { origin: _origin, type: _type, ...published } = message;
      this.channelListener?.(published);
      return;
    }
    if (message.type === 'labels') {
      this.labelsListener?.();
      return;
    }
    if (message.type === 'verified') {
      this.hub.emit('verified', { address: message.address });
      return;
    }
    if (message.type === 'traced') {
      this.hub.emit('traced', { blockNumber: BigInt(message.number) });
      return;
    }
    if (message.type === 'block') {
      // Known before the block is heard: what the block wakes may depend on it.
      if (message.traces) this.relayedTraceSupport = message.traces;
      const bundle = await this.announced(BigInt(message.number));
      if (bundle) this.hub.emit('block', bundle);
      return;
    }
    const removed = [...(this.partialReorgs.get(message.origin) ?? []), ...message.removed];
    if (message.more) {
      this.partialReorgs.set(message.origin, removed);
      return;
    }
    this.partialReorgs.delete(message.origin);
    this.hub.emit('reorg', { commonAncestor: { blockNumber: BigInt(message.ancestorNumber), blockHash: message.ancestorHash }, removedBlockHashes: removed });
  }
}
