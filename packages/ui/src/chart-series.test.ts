import { describe, expect, it } from 'vitest';
import { axisLabel, bucketLabel, latestOf, MEASURES, shapeOf, titleOf } from './chart-series.js';

// 2025-03-04 14:00 UTC
const AN_HOUR = 1_741_096_800;

describe('chart series', () => {
  it('titles a series by its name', () => {
    expect(titleOf('active-addresses')).toBe('Active addresses');
    expect(titleOf('transactions')).toBe('Transactions');
  });

  it('draws levels as lines and counts of a bucket as bars', () => {
    expect(shapeOf('token-holders')).toBe('line');
    expect(shapeOf('average-gas-price')).toBe('line');
    expect(shapeOf('transactions')).toBe('bars');
  });

  it('writes counts with thousands separators, gas prices in Gwei and USD with its sign', () => {
    expect(MEASURES.count.text('1234567')).toBe('1,234,567');
    expect(MEASURES.count.tick(25_000, 0)).toBe('25,000');
    expect(MEASURES.wei.number('1500000000')).toBe(1.5);
    expect(MEASURES.wei.text('1500000000')).toBe('1.50 Gwei');
    expect(MEASURES.usd.tick(1250.5, 2)).toBe('$1,250.50');
    expect(MEASURES.usd.tick(2.5, 1)).toBe('$2.50');
    expect(MEASURES.usd.tick(2000, 0)).toBe('$2,000');
    expect(MEASURES.usd.text('0.5')).toBe('$0.50');
  });

  it('takes the newest known value as the latest, passing over unknown ones', () => {
    const points = [
      { timestamp: '0', value: '1' },
      { timestamp: '86400', value: '2' },
      { timestamp: '172800', value: null },
    ];
    expect(latestOf(points)).toEqual({ timestamp: '86400', value: '2' });
    expect(latestOf([{ timestamp: '0', value: null }])).toBeNull();
  });

  it('writes buckets in UTC, in full and shorter on the axis', () => {
    expect(bucketLabel(AN_HOUR, 'day')).toBe('2025-03-04');
    expect(bucketLabel(String(AN_HOUR), 'hour')).toBe('2025-03-04 14:00 UTC');
    expect(axisLabel(AN_HOUR, 'hour')).toBe('03-04 14:00');
  });
});
