import { bucketOf, type ChartResolution, type ChartRollupsQuery, type Hex, type StoredChartRollup, type StoredTokenRollup, type TokenRollupsPage, type TokenRollupsQuery } from '@chainlens/core';
import { firstNotBefore } from './block-order.js';

/** What one block adds to the rollups of its hour and its day: its own figures, and its addresses not active earlier in its hour, and in its day. */
export type BlockRollup = Omit<StoredChartRollup, 'bucket' | 'blocks' | 'activeAddresses'> & { timestamp: bigint; hourActive: number; dayActive: number };

const RESOLUTIONS: readonly ChartResolution[] = ['hour', 'day'];

/**
 * Chart rollups per resolution in bucket order, the chain's and each token's. Blocks come in
 * chain order (timestamps never decrease) and leave from the top, so a block adds to the last
 * bucket or opens one, and a rollback takes exactly its contribution back.
 */
export class ChartIndex {
  readonly #chain: Record<ChartResolution, StoredChartRollup[]> = { hour: [], day: [] };
  readonly #tokens = new Map<Hex, Record<ChartResolution, StoredTokenRollup[]>>();

  add(block: BlockRollup): void {
    for (const resolution of RESOLUTIONS) {
      const list = this.#chain[resolution];
      const bucket = bucketOf(block.timestamp, resolution);
      let rollup = list.at(-1);
      if (rollup?.bucket !== bucket) {
        rollup = { bucket, blocks: 0, transactions: 0, gasUsed: 0n, gasPriceSum: 0n, newContracts: 0, tokenTransfers: 0, newAddresses: 0, activeAddresses: 0 };
        list.push(rollup);
      }
      apply(rollup, block, resolution, 1);
    }
  }

  /** Takes back the {@link add} of the newest block. */
  removeLast(block: BlockRollup): void {
    for (const resolution of RESOLUTIONS) {
      const list = this.#chain[resolution];
      const rollup = list.at(-1)!;
      apply(rollup, block, resolution, -1);
      if (rollup.blocks === 0) list.pop();
    }
  }

  /** A block moved `token` `transfers` times, leaving it `holders` holders. */
  addToken(token: Hex, timestamp: bigint, transfers: number, holders: number): void {
    let lists = this.#tokens.get(token);
    if (!lists) {
      lists = { hour: [], day: [] };
      this.#tokens.set(token, lists);
    }
    for (const resolution of RESOLUTIONS) {
      const bucket = bucketOf(timestamp, resolution);
      const list = lists[resolution];
      const last = list.at(-1);
      if (last?.bucket === bucket) {
        last.transfers += transfers;
        last.holders = holders;
      } else list.push({ bucket, transfers, holders });
    }
  }

  /** Takes back the newest block's {@link addToken}; `holders` is the token's count without that block. */
  removeLastToken(token: Hex, transfers: number, holders: number): void {
    const lists = this.#tokens.get(token)!;
    for (const resolution of RESOLUTIONS) {
      const list = lists[resolution];
      const last = list.at(-1)!;
      last.transfers -= transfers;
      last.holders = holders;
      if (last.transfers === 0) list.pop();
    }
    if (lists.hour.length === 0) this.#tokens.delete(token);
  }

  list({ resolution, from, to }: ChartRollupsQuery): StoredChartRollup[] {
    const list = this.#chain[resolution];
    return list.slice(firstFrom(list, from), firstFrom(list, to + 1n)).map((rollup) => ({ ...rollup }));
  }

  listToken({ token, resolution, from, to }: TokenRollupsQuery): TokenRollupsPage {
    const list = this.#tokens.get(token)?.[resolution] ?? [];
    const start = firstFrom(list, from);
    const before = list[start - 1];
    return { before: before ? { ...before } : null, rollups: list.slice(start, firstFrom(list, to + 1n)).map((rollup) => ({ ...rollup })) };
  }
}

/** Adds (`sign` 1) or takes back (-1) a block's contribution to its bucket's rollup. */
function apply(rollup: StoredChartRollup, block: BlockRollup, resolution: ChartResolution, sign: 1 | -1): void {
  rollup.blocks += sign;
  rollup.transactions += sign * block.transactions;
  rollup.gasUsed += BigInt(sign) * block.gasUsed;
  rollup.gasPriceSum += BigInt(sign) * block.gasPriceSum;
  rollup.newContracts += sign * block.newContracts;
  rollup.tokenTransfers += sign * block.tokenTransfers;
  rollup.newAddresses += sign * block.newAddresses;
  rollup.activeAddresses += sign * (resolution === 'hour' ? block.hourActive : block.dayActive);
}

/** Index of the first rollup whose bucket is at or after `bucket` (`list.length` if none). */
function firstFrom(list: readonly { bucket: bigint }[], bucket: bigint): number {
  return firstNotBefore(list, (rollup) => rollup.bucket < bucket);
}
