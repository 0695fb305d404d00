import { describe, expect, it } from 'vitest';
import { LABEL_CHAR_PX, layoutChart, linearScale, niceTicks, timeTicks, type LayoutOptions } from './chart-geometry.js';

const DAY = 86_400;
const HOUR = 3_600;
const OPTIONS: LayoutOptions = { width: 600, height: 200, bucketSeconds: DAY, integer: true, yLabel: (value) => String(value), xLabel: (timestamp) => String(timestamp) };

describe('niceTicks', () => {
  it('steps by the 1, 2 or 5 times a power of ten nearest the asked count, from zero past the highest value', () => {
    expect(niceTicks(0, 87, 4)).toEqual({ ticks: [0, 20, 40, 60, 80, 100], decimals: 0 });
    expect(niceTicks(0, 1_234_567, 5)).toEqual({ ticks: [0, 200_000, 400_000, 600_000, 800_000, 1_000_000, 1_200_000, 1_400_000], decimals: 0 });
  });

  it('gives fractional steps the decimals they need, without float noise', () => {
    expect(niceTicks(0, 0.7, 3)).toEqual({ ticks: [0, 0.2, 0.4, 0.6, 0.8], decimals: 1 });
    expect(niceTicks(0, 0.3, 6)).toEqual({ ticks: [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3], decimals: 2 });
  });

  it('keeps whole-number series on whole steps', () => {
    expect(niceTicks(0, 2, 5, true)).toEqual({ ticks: [0, 1, 2], decimals: 0 });
  });

  it('gives a flat series at zero one step above it', () => {
    expect(niceTicks(0, 0, 4, true)).toEqual({ ticks: [0, 1], decimals: 0 });
  });

  it('reaches below zero for negative values', () => {
    expect(niceTicks(-30, 50, 4).ticks).toEqual([-40, -20, 0, 20, 40, 60]);
  });
});

describe('timeTicks', () => {
  it('labels every bucket when they all fit', () => {
    expect(timeTicks(10 * DAY, 13 * DAY, DAY, 5)).toEqual([10 * DAY, 11 * DAY, 12 * DAY, 13 * DAY]);
  });

  it('spaces ticks on round steps aligned to the clock when they do not', () => {
    expect(timeTicks(5 * HOUR, 29 * HOUR, HOUR, 5)).toEqual([6 * HOUR, 12 * HOUR, 18 * HOUR, 24 * HOUR]);
  });

  it('never puts more ticks than asked, even past the longest round step', () => {
    const ticks = timeTicks(0, 9_999 * DAY, DAY, 4);
    expect(ticks.length).toBeLessThanOrEqual(4);
    expect(ticks.every((tick) => tick % DAY === 0)).toBe(true);
  });

  it('labels a lone bucket', () => {
    expect(timeTicks(7 * HOUR, 7 * HOUR, HOUR, 3)).toEqual([7 * HOUR]);
  });
});

describe('linearScale', () => {
  it('maps a domain onto a range, reversed ranges included', () => {
    const y = linearScale([0, 100], [180, 10]);
    expect([y(0), y(50), y(100)]).toEqual([180, 95, 10]);
  });

  it('puts everything in the middle of an empty domain', () => {
    expect(linearScale([5, 5], [0, 100])(5)).toBe(50);
  });
});

describe('layoutChart', () => {
  const points = [
    { timestamp: 10 * DAY, value: 4 },
    { timestamp: 11 * DAY, value: null },
    { timestamp: 12 * DAY, value: 8 },
    { timestamp: 14 * DAY, value: 2 },
  ];

  it('draws one mark per known value, at the middle of its bucket, in time order', () => {
    const layout = layoutChart(points, OPTIONS);
    expect(layout.marks.map((mark) => mark.index)).toEqual([0, 2, 3]);
    const bucket = (layout.right - layout.left) / 5;
    expect(layout.marks.map((mark) => mark.x)).toEqual([0.5, 2.5, 4.5].map((buckets) => layout.left + buckets * bucket));
  });

  it('puts values in proportion above the baseline, the highest tick at the top', () => {
    const layout = layoutChart(points, OPTIONS);
    expect(layout.yTicks.at(-1)!.at).toBe(layout.top);
    expect(layout.baseline).toBe(layout.bottom);
    const [four, eight, two] = layout.marks.map((mark) => layout.baseline - mark.y);
    expect(eight).toBeCloseTo(2 * four!);
    expect(four).toBeCloseTo(2 * two!);
  });

  it('breaks the line where a value is missing', () => {
    expect(layoutChart(points, OPTIONS).line.match(/[ML]/g)).toEqual(['M', 'M', 'L']);
  });

  it('leaves room left of the plot for the widest value label', () => {
    const narrow = layoutChart(points, OPTIONS);
    const wide = layoutChart(points, { ...OPTIONS, yLabel: (value) => `${value} with a long unit` });
    expect(wide.left).toBeGreaterThan(narrow.left + 80);
  });

  it('keeps bars within their buckets, and no wider than a readable bar', () => {
    const many = layoutChart(
      Array.from({ length: 365 }, (_, i) => ({ timestamp: i * DAY, value: i })),
      OPTIONS,
    );
    const bucket = (many.right - many.left) / 365;
    expect(many.marks.every((mark) => mark.barWidth <= bucket)).toBe(true);
    expect(layoutChart([{ timestamp: 0, value: 1 }], OPTIONS).marks[0]!.barWidth).toBeLessThanOrEqual(48);
  });

  it('keeps time labels apart and inside the chart', () => {
    const layout = layoutChart(
      Array.from({ length: 365 }, (_, i) => ({ timestamp: i * DAY, value: i })),
      { ...OPTIONS, xLabel: () => '2025-03-04' },
    );
    const half = (10 * LABEL_CHAR_PX) / 2;
    expect(layout.xTicks.length).toBeGreaterThan(1);
    expect(layout.xTicks.every((tick) => tick.at >= half && tick.at <= OPTIONS.width - half)).toBe(true);
    const gaps = layout.xTicks.slice(1).map((tick, i) => tick.at - layout.xTicks[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThan(2 * half);
  });
});
