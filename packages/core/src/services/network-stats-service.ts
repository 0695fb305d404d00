import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import { UpstreamUnavailableError } from '../errors/index.js';
import type { BlockReader, StoredBlock } from '../storage/index.js';
import type { z } from 'zod';
import type { networkStatsRecordSchema } from '../records/record-schemas.js';

/**
 * Network statistics record (spec: Network statistics). Every figure comes from indexed blocks
 * or the node; what an EVM node cannot tell is `null` (see "Honest numbers" in docs/choices.md).
 */
export type NetworkStatsRecord = z.infer<typeof networkStatsRecordSchema>;

/** Computes network statistics over the newest `window` indexed blocks. */
export class NetworkStatsService {
  constructor(
    private readonly storage: BlockReader,
    private readonly chain: ChainClient,
    private readonly window: number,
  ) {}

  async stats(): Promise<NetworkStatsRecord> {
    const [blocks, totals, gasPrice, peers] = await Promise.all([
      this.storage.listRecentBlocks(this.window),
      this.storage.getChainTotals(),
      this.optional<string>('eth_gasPrice'),
      this.optional<string>('net_peerCount'),
    ]);
    const newest = blocks[0];
    const timing = blockTiming(blocks);
    const load =
      blocks.length === 0 ? 0 : blocks.reduce((sum, b) => sum + (b.gasLimit === 0n ? 0 : Number((b.gasUsed * 10_000n) / b.gasLimit)), 0) / blocks.length / 100;
    const difficulty = newest?.difficulty ?? 0n;
    return {
      blockHeight: newest ? Number(newest.number) : 0,
      blockTime: round(timing.blockTime),
      tps: round(timing.tps),
      peakTps: round(timing.peakTps),
      gasPrice: gasPrice === null ? null : BigInt(gasPrice).toString(),
      networkHashrate: timing.blockTime > 0 ? (difficulty / BigInt(Math.max(1, Math.round(timing.blockTime)))).toString() : '0',
      difficulty: difficulty.toString(),
      circulatingSupply: null,
      totalSupply: null,
      totalAccounts: totals.totalAccounts,
      totalTransactions: totals.totalTransactions,
      totalContracts: totals.totalContracts,
      activeNodes: peers === null ? null : Number(BigInt(peers)) + 1,
      networkLoad: round(load),
    };
  }

  /** A node read that degrades to `null` when the node is unreachable or lacks the method. */
  private async optional<T>(method: string): Promise<T | null> {
    try {
      return await this.chain.request<T>(method);
    } catch (error) {
      if (error instanceof UpstreamUnavailableError || error instanceof NodeRpcError) return null;
      throw error;
    }
  }
}

/**
 * Block time, TPS and peak TPS over blocks given newest first. Blocks sharing a timestamp form
 * one group (several blocks a second on fast chains); a group's rate is its transactions over
 * the seconds since the previous group. The oldest group only marks where the window starts, so
 * `tps` is the window's mean rate and `peakTps` its busiest group (never below the mean).
 */
export function blockTiming(blocks: readonly StoredBlock[]): { blockTime: number; tps: number; peakTps: number } {
  if (blocks.length < 2) return { blockTime: 0, tps: 0, peakTps: 0 };
  const span = Number(blocks[0]!.timestamp - blocks[blocks.length - 1]!.timestamp);
  let transactions = 0;
  let peakTps = 0;
  let i = 0;
  while (i < blocks.length) {
    const timestamp = blocks[i]!.timestamp;
    let groupTransactions = 0;
    while (i < blocks.length && blocks[i]!.timestamp === timestamp) groupTransactions += blocks[i++]!.transactionCount;
    if (i === blocks.length) break;
    transactions += groupTransactions;
    peakTps = Math.max(peakTps, groupTransactions / Number(timestamp - blocks[i]!.timestamp));
  }
  return {
    blockTime: span / (blocks.length - 1),
    tps: span > 0 ? transactions / span : 0,
    peakTps,
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
