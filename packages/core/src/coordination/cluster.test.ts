import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createEventHub, type ReorgEvent } from '../events/index.js';
import type { TraceSupport } from '../indexer/block-tracer.js';
import type { Indexer } from '../indexer/indexer.js';
import type { BlockBundle, Hex, Storage } from '../storage/index.js';
import { makeChain, waitFor } from '@chainlens/testing';
import { announceBlock, ClusterMember } from './cluster.js';
import type { Coordinator } from './coordinator.js';

/** One bus shared by every coordinator made from it, refusing messages over the contract's 7,900 bytes as NOTIFY does. */
function sharedBus() {
  const listeners: ((message: string) => void)[] = [];
  const sizes: number[] = [];
  const coordinator = (): Coordinator => ({
    acquireLease: async () => false,
    holdsLease: () => false,
    releaseLease: async () => undefined,
    async publish(message) {
      sizes.push(Buffer.byteLength(message));
      if (Buffer.byteLength(message) > 7_900) throw new Error('payload string too long');
      for (const listener of listeners) listener(message);
    },
    async subscribe(listener) {
      listeners.push(listener);
    },
    close: async () => undefined,
  });
  return { coordinator, sizes };
}

/** The indexer as the cluster member sees it: whether it runs and, when it traces, what its tracer knows of the node. */
const indexerRunning = (running: boolean, tracing: { support: TraceSupport } | null = null) =>
  ({ status: { running, tracing }, start() {}, stop: async () => undefined }) as unknown as Indexer;

describe('ClusterMember', () => {
  it('relays a reorg of 350 removed blocks whole, in messages within the bus limit', async () => {
    const bus = sharedBus();
    const logger = pino({ level: 'silent' });
    const leaderHub = createEventHub();
    const followerHub = createEventHub();
    // Neither member reads storage for a reorg: its removed blocks are gone from there.
    const storage = {} as Storage;
    const leader = new ClusterMember(bus.coordinator(), indexerRunning(true), storage, leaderHub, logger, 60_000);
    const follower = new ClusterMember(bus.coordinator(), indexerRunning(false), storage, followerHub, logger, 60_000);
    await leader.start(false);
    await follower.start(false);
    const heard: ReorgEvent[] = [];
    followerHub.on('reorg', (event) => heard.push(event));

    const removed = Array.from({ length: 350 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}` as Hex);
    const event: ReorgEvent = { commonAncestor: { blockNumber: 1_000n, blockHash: `0x${'ab'.repeat(32)}` }, removedBlockHashes: removed };
    leaderHub.emit('reorg', event);

    await waitFor(() => heard.length === 1, 'the follower to hear the reorg');
    expect(heard).toEqual([event]);
    expect(bus.sizes.length).toBeGreaterThan(1);
    expect(Math.max(...bus.sizes)).toBeLessThanOrEqual(7_900);

    leaderHub.emit('reorg', { commonAncestor: event.commonAncestor, removedBlockHashes: removed.slice(0, 2) });
    await waitFor(() => heard.length === 2, 'the follower to hear the second reorg');
    expect(heard[1]!.removedBlockHashes).toEqual(removed.slice(0, 2));
    await follower.stop();
    await leader.stop();
  });

  /** What a serving member on `storage` puts on its hub after an outside writer announces `bundle`. */
  async function heardOnAnnouncing(storage: Storage, bundle: BlockBundle): Promise<BlockBundle[]> {
    const bus = sharedBus();
    const hub = createEventHub();
    const member = new ClusterMember(bus.coordinator(), indexerRunning(false), storage, hub, pino({ level: 'silent' }), 60_000);
    await member.start(false);
    const heard: BlockBundle[] = [];
    hub.on('block', (block) => heard.push(block));
    await announceBlock(bus.coordinator(), bundle.block.number);
    await waitFor(() => heard.length === 1, 'the member to hear the block');
    await member.stop();
    return heard;
  }

  it('replays a block an outside writer announces as the stored block, like the indexing instance’s', async () => {
    const [bundle] = makeChain({ blocks: 1 });
    const storage = { getBlockBundle: async (number: bigint) => (number === bundle!.block.number ? bundle : null) } as unknown as Storage;
    expect(await heardOnAnnouncing(storage, bundle!)).toEqual([bundle]);
  });

  it('replays an announced block that its read replica replays between two reads, never taking it for a removed one', async () => {
    const [bundle] = makeChain({ blocks: 1 });
    // A replica that replays the block right after each read of it that found nothing.
    let replayed = false;
    const storage = {
      primary: {} as Storage,
      getBlockBundle: async () => {
        if (replayed) return bundle;
        replayed = true;
        return null;
      },
      getCursor: async () => (replayed ? { number: bundle!.block.number, hash: bundle!.block.hash } : null),
    } as unknown as Storage;
    expect(await heardOnAnnouncing(storage, bundle!)).toEqual([bundle]);
  });

  it('tells the members that do not index whether the node traces, with each block, and which blocks are traced', async () => {
    const bus = sharedBus();
    const logger = pino({ level: 'silent' });
    const chain = makeChain({ blocks: 2 });
    const storage = { getBlockBundle: async (number: bigint) => chain.find((bundle) => bundle.block.number === number) ?? null } as unknown as Storage;
    const tracing = { support: 'unknown' as TraceSupport };
    const leaderHub = createEventHub();
    const followerHub = createEventHub();
    const leader = new ClusterMember(bus.coordinator(), indexerRunning(true, tracing), storage, leaderHub, logger, 60_000);
    const follower = new ClusterMember(bus.coordinator(), indexerRunning(false), storage, followerHub, logger, 60_000);
    await leader.start(false);
    await follower.start(false);
    const heard: string[] = [];
    followerHub.on('block', (bundle) => heard.push(`block ${bundle.block.number} (${follower.traceSupport})`));
    followerHub.on('traced', ({ blockNumber }) => heard.push(`traced ${blockNumber}`));

    leaderHub.emit('block', chain[0]!);
    await waitFor(() => heard.length === 1, 'the follower to hear the first block');
    tracing.support = 'yes';
    leaderHub.emit('traced', { blockNumber: chain[0]!.block.number });
    tracing.support = 'no';
    leaderHub.emit('block', chain[1]!);
    await waitFor(() => heard.length === 3, 'the follower to hear the traced block and the second block');
    expect(heard).toEqual([`block ${chain[0]!.block.number} (unknown)`, `traced ${chain[0]!.block.number}`, `block ${chain[1]!.block.number} (no)`]);
    expect(leader.traceSupport).toBe('unknown');
    await follower.stop();
    await leader.stop();
  });

  it('tells the other members, not itself, that labels changed', async () => {
    const bus = sharedBus();
    const logger = pino({ level: 'silent' });
    const [one, two] = [0, 1].map(() => new ClusterMember(bus.coordinator(), indexerRunning(false), {} as Storage, createEventHub(), logger, 60_000));
    const heard = { one: 0, two: 0 };
    one!.onLabels(() => heard.one++);
    two!.onLabels(() => heard.two++);
    await one!.start(false);
    await two!.start(false);
    one!.relayLabels();
    await waitFor(() => heard.two === 1, 'the other member to hear the label change');
    expect(heard.one).toBe(0);
    await one!.stop();
    await two!.stop();
  });

  it('tells the other members, not itself, that a contract was verified, as a verified event on their hubs', async () => {
    const bus = sharedBus();
    const logger = pino({ level: 'silent' });
    const hubs = [createEventHub(), createEventHub()];
    const [one, two] = hubs.map((hub) => new ClusterMember(bus.coordinator(), indexerRunning(false), {} as Storage, hub, logger, 60_000));
    const heard: Hex[][] = [[], []];
    hubs.forEach((hub, i) => hub.on('verified', ({ address }) => heard[i]!.push(address)));
    await one!.start(false);
    await two!.start(false);
    const contract = `0x${'c'.repeat(40)}` as Hex;
    one!.relayVerified(contract);
    await waitFor(() => heard[1]!.length === 1, 'the other member to hear the verification');
    expect(heard).toEqual([[], [contract]]);
    await one!.stop();
    await two!.stop();
  });
});
