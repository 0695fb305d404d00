import type { Logger } from 'pino';
import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import type { RpcBlock, RpcTransaction } from '../chain/rpc-types.js';
import type { EventHub, PendingTransactionEvent } from '../events/index.js';
import type { Hex } from '../storage/index.js';
import { nowSeconds } from '../values/time.js';
import { Alarm } from './sleep.js';

/** Options of {@link PendingTracker}. */
export interface PendingTrackerOptions {
  pollIntervalMs: number;
  /** Most transactions remembered (pending and recently gone); the oldest are forgotten first. */
  maxTracked: number;
}

/** What the tracker knows of a transaction hash. */
export type PendingLookup =
  | { state: 'pending'; transaction: PendingTransactionEvent }
  /** Left the pool without being indexed (yet); `goneAtHead` is the node head when that was seen. */
  | { state: 'gone'; transaction: PendingTransactionEvent; goneAtHead: bigint };

interface Entry {
  transaction: PendingTransactionEvent;
  goneAtHead: bigint | null;
}

interface TxPoolContent {
  pending: Record<string, Record<string, RpcTransaction>>;
  queued: Record<string, Record<string, RpcTransaction>>;
}

/**
 * Follows the node's pending pool (`txpool_content`, or the `pending` block where the node has
 * no txpool API). Remembers when each transaction was first seen and when it left the pool, so
 * a transaction that left without being mined can be told apart as dropped.
 */
export class PendingTracker {
  private readonly entries = new Map<Hex, Entry>();
  private source: 'txpool' | 'pendingBlock' = 'txpool';
  private abort = new AbortController();
  private loop: Promise<void> | null = null;
  private readonly alarm = new Alarm();

  constructor(
    private readonly chain: ChainClient,
    private readonly hub: EventHub,
    private readonly logger: Logger,
    private readonly options: PendingTrackerOptions,
  ) {
    hub.on('block', (bundle) => {
      for (const tx of bundle.transactions) this.entries.delete(tx.hash);
    });
  }

  start(): void {
    if (this.loop) return;
    this.abort = new AbortController();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    this.loop = null;
  }

  /** Reads the pool now instead of at the next poll (a node announced new pending transactions). */
  poke(): void {
    this.alarm.ring();
  }

  /** Transactions currently pending, newest first, optionally only those from or to `address`. */
  list(filter: { address?: Hex; limit: number }): PendingTransactionEvent[] {
    const result: PendingTransactionEvent[] = [];
    const all = [...this.entries.values()];
    for (let i = all.length - 1; i >= 0 && result.length < filter.limit; i--) {
      const entry = all[i]!;
      if (entry.goneAtHead !== null) continue;
      const tx = entry.transaction;
      if (filter.address && tx.from !== filter.address && tx.to !== filter.address) continue;
      result.push(tx);
    }
    return result;
  }

  lookup(hash: Hex): PendingLookup | null {
    const entry = this.entries.get(hash);
    if (!entry) return null;
    return entry.goneAtHead === null
      ? { state: 'pending', transaction: entry.transaction }
      : { state: 'gone', transaction: entry.transaction, goneAtHead: entry.goneAtHead };
  }

  /** Records a transaction ChainLens itself forwarded, so it is known before the next poll. */
  remember(transaction: PendingTransactionEvent): void {
    if (!this.entries.has(transaction.hash)) this.add(transaction);
  }

  /** Reads the pool once. Exposed for tests; the loop calls it every poll interval. */
  async poll(): Promise<void> {
    const pool = await this.readPool();
    const seen = new Set<Hex>();
    const now = nowSeconds();
    for (const tx of pool) {
      const hash = tx.hash.toLowerCase() as Hex;
      seen.add(hash);
      const entry = this.entries.get(hash);
      if (!entry) this.add(toPending(tx, now));
      else if (entry.goneAtHead !== null) entry.goneAtHead = null;
    }
    let head: bigint | null = null;
    for (const [hash, entry] of this.entries) {
      if (entry.goneAtHead !== null || seen.has(hash)) continue;
      head ??= BigInt(await this.chain.request<string>('eth_blockNumber'));
      entry.goneAtHead = head;
    }
  }

  private add(transaction: PendingTransactionEvent): void {
    this.entries.set(transaction.hash, { transaction, goneAtHead: null });
    if (this.entries.size > this.options.maxTracked) {
      const oldest = this.entries.keys().next().value as Hex;
      this.entries.delete(oldest);
    }
    this.hub.emit('pendingTransaction', transaction);
  }

  private async readPool(): Promise<RpcTransaction[]> {
    if (this.source === 'txpool') {
      try {
        const content = await this.chain.request<TxPoolContent>('txpool_content');
        return [content.pending, content.queued].flatMap((bySender) =>
          Object.values(bySender ?? {}).flatMap((byNonce) => Object.values(byNonce)),
        );
      } catch (error) {
        if (!(error instanceof NodeRpcError)) throw error;
        this.source = 'pendingBlock';
        this.logger.info('node has no txpool_content; following the pending block instead');
      }
    }
    const block = await this.chain.request<RpcBlock | null>('eth_getBlockByNumber', ['pending', true]);
    return block?.transactions ?? [];
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        await this.poll();
      } catch (error) {
        this.logger.debug({ err: error }, 'pending pool poll failed');
      }
      await this.alarm.sleep(this.options.pollIntervalMs, this.abort.signal);
    }
  }
}

/** A node transaction as a pending-transaction event first seen at `seenAt`. */
export function toPending(tx: RpcTransaction, seenAt: bigint): PendingTransactionEvent {
  return {
    hash: tx.hash.toLowerCase() as Hex,
    from: tx.from.toLowerCase() as Hex,
    to: tx.to ? (tx.to.toLowerCase() as Hex) : null,
    value: BigInt(tx.value),
    gasPrice: BigInt(tx.gasPrice ?? tx.maxFeePerGas ?? 0),
    gas: BigInt(tx.gas),
    nonce: BigInt(tx.nonce),
    submittedAt: seenAt,
  };
}
