import { describe, expect, it } from 'vitest';
import type { Storage } from '../storage/index.js';
import { makeChain } from '@chainlens/testing';
import { lastBlockAtOrBefore } from './block-at-time.js';

describe('lastBlockAtOrBefore', () => {
  const chain = makeChain({ blocks: 37, startNumber: 100n, blockTime: 12n, txPerBlock: 0 });
  const storage = { getBlockByNumber: async (n: bigint) => chain.find((b) => b.block.number === n)?.block ?? null } as Storage;
  const first = chain[0]!.block;
  const last = chain.at(-1)!.block;

  it('finds the newest block at or before any time, as a linear scan would', async () => {
    for (let t = first.timestamp - 5n; t <= last.timestamp + 5n; t += 5n) {
      const expected = [...chain].reverse().find((b) => b.block.timestamp <= t)?.block ?? null;
      expect(await lastBlockAtOrBefore(storage, first.number, last.number, t), `t=${t}`).toEqual(expected);
    }
  });

  it('is null when even the first block is later, and the last block for a time past the end', async () => {
    expect(await lastBlockAtOrBefore(storage, first.number, last.number, first.timestamp - 1n)).toBeNull();
    expect(await lastBlockAtOrBefore(storage, first.number, last.number, last.timestamp + 10_000n)).toEqual(last);
  });
});
