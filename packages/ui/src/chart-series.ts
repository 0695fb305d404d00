/** How the page reads a chart series: its title, how its values are drawn and written, its buckets. */
import { formatGwei, formatUsd, groupThousands } from './format.js';
import type { Chart, ChartPoint, ChartSeries } from './records.js';

/** A chart's bucket width, in seconds. */
export const BUCKET_SECONDS: Readonly<Record<Chart['resolution'], number>> = { day: 86_400, hour: 3_600 };

/** How values of one unit are drawn and written. */
export interface Measure {
  /** The value (the API's decimal string) as the number drawn. */
  number(value: string): number;
  /** The value written in full, as the latest one is. */
  text(value: string): string;
  /** An axis tick's label, with `decimals` places. */
  tick(value: number, decimals: number): string;
  /** The values are whole numbers. */
  integer: boolean;
  /** What the value axis counts in, where its ticks do not say (shown beside the title). */
  axisUnit: string;
}

const decimal = (value: number, decimals: number) => value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
const whole: Measure = { number: Number, text: groupThousands, tick: decimal, integer: true, axisUnit: '' };

/** Each unit the API names: counts and gas as they are, gas prices (Wei) in Gwei, USD with its sign. */
export const MEASURES: Readonly<Record<ChartSeries['unit'], Measure>> = {
  count: whole,
  gas: whole,
  wei: { number: (wei) => Number(wei) / 1e9, text: formatGwei, tick: decimal, integer: false, axisUnit: 'Gwei' },
  // Cents in full where a step is below a dollar: $2.50, not $2.5.
  usd: { number: Number, text: formatUsd, tick: (value, decimals) => `$${decimal(value, decimals === 0 ? 0 : Math.max(2, decimals))}`, integer: false, axisUnit: '' },
};

/** Series that are a level (at the end of a bucket, or an average) read as a line; the others count what happened in a bucket, as bars. */
const LEVELS = new Set(['average-gas-price', 'token-holders', 'token-price']);

/** How the series is drawn. */
export function shapeOf(name: string): 'line' | 'bars' {
  return LEVELS.has(name) ? 'line' : 'bars';
}

/** A series' name as a title: `active-addresses` is "Active addresses". */
export function titleOf(name: string): string {
  const words = name.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The newest point with a value, `null` when none has one. */
export function latestOf(points: readonly ChartPoint[]): (ChartPoint & { value: string }) | null {
  for (let i = points.length - 1; i >= 0; i--) {
    const point = points[i]!;
    if (point.value !== null) return { timestamp: point.timestamp, value: point.value };
  }
  return null;
}

/** A bucket written in full (UTC): `2025-03-04`, or `2025-03-04 14:00 UTC` for an hour. */
export function bucketLabel(timestamp: number | string, resolution: Chart['resolution']): string {
  const iso = new Date(Number(timestamp) * 1000).toISOString();
  return resolution === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** A bucket on the time axis: `2025-03-04`, or `03-04 14:00` for an hour. */
export function axisLabel(timestamp: number, resolution: Chart['resolution']): string {
  const iso = new Date(timestamp * 1000).toISOString();
  return resolution === 'day' ? iso.slice(0, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}
