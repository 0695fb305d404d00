import { describe, expect, it } from 'vitest';
import type { StoredBlock } from '../storage/index.js';
import { blockTiming } from './network-stats-service.js';

const block = (timestamp: number, transactionCount: number) => ({ timestamp: BigInt(timestamp), transactionCount }) as StoredBlock;

describe('blockTiming', () => {
  it('measures a steady chain: block time, mean and peak rate', () => {
    const blocks = [block(36, 6), block(24, 12), block(12, 3), block(0, 99)];
    expect(blockTiming(blocks)).toEqual({ blockTime: 12, tps: 21 / 36, peakTps: 1 });
  });

  it('groups several blocks of one second so bursts count at their real rate', () => {
    const blocks = [block(2, 1), block(2, 1), block(2, 1), block(1, 1), block(0, 5)];
    const timing = blockTiming(blocks);
    expect(timing.tps).toBe(2);
    expect(timing.peakTps).toBe(3);
  });

  it('is zero with fewer than two blocks or no elapsed time', () => {
    expect(blockTiming([block(5, 10)])).toEqual({ blockTime: 0, tps: 0, peakTps: 0 });
    expect(blockTiming([block(5, 10), block(5, 3)])).toEqual({ blockTime: 0, tps: 0, peakTps: 0 });
  });
});
