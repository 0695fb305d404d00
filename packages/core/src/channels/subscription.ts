import type { ChannelDefinition } from './channel-definition.js';
import { frame, type Outgoing } from './outgoing.js';

/** What a subscription sent from one block, kept to re-send it `removed` if the block is reorged away. */
interface SentFromBlock {
  blockHash: string;
  blockNumber: bigint;
  bodies: string[];
}

/** A live item that arrived while the subscription was replaying, delivered in order afterwards. */
export type Deferred = { kind: 'data'; message: Outgoing } | { kind: 'reorg'; removedBlockHashes: readonly string[]; frame: string | null };

/**
 * One connection's subscription to one stream (a channel, and an address where it has one).
 * Its sequence counts every data message it was sent; block-derived data is remembered for the
 * newest `memoryBlocks` blocks so a reorg can send it again with `removed: true`.
 */
export class Subscription {
  #sequence = 0;
  #sent: SentFromBlock[] = [];
  /** Live items held back while `fromBlock` data is read from storage; `null` when live. */
  deferred: Deferred[] | null = null;
  /** Blocks the replay sent; live data from them is a duplicate. */
  replayed: Set<string> | null = null;

  constructor(
    readonly channel: ChannelDefinition,
    readonly key: string,
    readonly address: string | undefined,
    private readonly send: (text: string) => void,
    private readonly memoryBlocks: number,
  ) {}

  /** Delivers a live data message (held back during a replay, dropped if the replay sent its block). */
  deliver(message: Outgoing): void {
    if (this.deferred) {
      this.deferred.push({ kind: 'data', message });
      return;
    }
    if (message.blockHash !== undefined && this.replayed?.has(message.blockHash)) return;
    this.sendData(message);
  }

  /** Sends a data message now and remembers it if it came from a block. */
  sendData(message: Outgoing): void {
    this.send(frame(++this.#sequence, message.body));
    if (message.blockHash === undefined || message.blockNumber === null) return;
    const last = this.#sent.at(-1);
    if (last?.blockHash === message.blockHash) {
      last.bodies.push(message.body);
      return;
    }
    this.#sent.push({ blockHash: message.blockHash, blockNumber: message.blockNumber, bodies: [message.body] });
    const oldest = message.blockNumber - BigInt(this.memoryBlocks);
    while (this.#sent.length > 0 && this.#sent[0]!.blockNumber <= oldest) this.#sent.shift();
  }

  /** Sends a frame that carries no sequence (the `reorg` notice). */
  sendRaw(text: string): void {
    this.send(text);
  }

  /**
   * Applies a reorg: the `reorg` notice (blocks subscribers), then every message this
   * subscription was sent from a removed block again, newest block first, with `removed: true`.
   */
  reorg(removedBlockHashes: readonly string[], notice: string | null): void {
    if (this.deferred) {
      this.deferred.push({ kind: 'reorg', removedBlockHashes, frame: notice });
      return;
    }
    if (notice !== null) this.send(notice);
    const removed = new Set(removedBlockHashes);
    const kept: SentFromBlock[] = [];
    const gone: SentFromBlock[] = [];
    for (const sent of this.#sent) (removed.has(sent.blockHash) ? gone : kept).push(sent);
    this.#sent = kept;
    for (const sent of gone.reverse()) for (const body of sent.bodies) this.send(frame(++this.#sequence, body, true));
    for (const hash of removed) this.replayed?.delete(hash);
  }

  /** Ends a replay: delivers what was held back, in order, skipping blocks the replay already sent. */
  goLive(): void {
    const deferred = this.deferred ?? [];
    this.deferred = null;
    for (const item of deferred) {
      if (item.kind === 'data') this.deliver(item.message);
      else this.reorg(item.removedBlockHashes, item.frame);
    }
  }
}
