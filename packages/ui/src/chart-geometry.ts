/**
 * Where a chart's marks and axis ticks go, in pixels: plain arithmetic, so the SVG component only
 * draws what this returns and the sums are tested without a browser.
 */

/** A point to draw: its bucket's start (Unix seconds) and its value as a number (`null`: none known). */
export interface PlotPoint {
  timestamp: number;
  value: number | null;
}

/** One drawn value: its point's index, the centre of its bucket (x), the level of its value (y), and its bar. */
export interface Mark {
  index: number;
  x: number;
  y: number;
  barX: number;
  barWidth: number;
}

/** An axis tick: where it goes and what it says. */
export interface Tick {
  at: number;
  label: string;
}

export interface ChartLayout {
  /** One per point with a value, in order. */
  marks: Mark[];
  /** The line through the marks as SVG path data, broken where a value is missing. */
  line: string;
  /** Where zero is: the foot of the bars. */
  baseline: number;
  /** The plotting area's edges. */
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Value ticks (`at` is y), from the lowest up. */
  yTicks: Tick[];
  /** Time ticks (`at` is x, the middle of the bucket, kept inside the chart for its label). */
  xTicks: Tick[];
}

export interface LayoutOptions {
  width: number;
  height: number;
  bucketSeconds: number;
  /** The values are whole numbers, so are the ticks. */
  integer: boolean;
  /** A value tick's label, `decimals` places. */
  yLabel(value: number, decimals: number): string;
  /** A time tick's label. */
  xLabel(timestamp: number): string;
}

/** Roughly how wide a character of the axis labels is (11 px type), to keep labels apart and inside. */
export const LABEL_CHAR_PX = 6.6;
const TOP = 10;
const BOTTOM = 22;
const RIGHT = 8;
/** Rows of value ticks: about one every this many pixels. */
const Y_TICK_PX = 36;
/** Widest bar, so a chart of two or three buckets does not look like a wall. */
const MAX_BAR_PX = 48;

/** Lays out `points` (oldest first, at least one) in a `width` × `height` chart. */
export function layoutChart(points: readonly PlotPoint[], options: LayoutOptions): ChartLayout {
  const { width, height, bucketSeconds } = options;
  const values = points.flatMap((point) => (point.value === null ? [] : [point.value]));
  const top = TOP;
  const bottom = height - BOTTOM;
  const scale = niceTicks(Math.min(0, ...values), Math.max(0, ...values), Math.max(2, Math.floor((bottom - top) / Y_TICK_PX)), options.integer);
  const yLabels = scale.ticks.map((value) => options.yLabel(value, scale.decimals));
  const left = Math.ceil(Math.max(...yLabels.map((label) => label.length)) * LABEL_CHAR_PX) + 8;
  const right = width - RIGHT;
  const y = linearScale([scale.ticks[0]!, scale.ticks.at(-1)!], [bottom, top]);

  const first = points[0]!.timestamp;
  const last = points.at(-1)!.timestamp;
  const x = linearScale([first, last + bucketSeconds], [left, right]);
  const bucketPx = ((right - left) * bucketSeconds) / (last + bucketSeconds - first);
  const barWidth = Math.min(MAX_BAR_PX, Math.max(1, bucketPx * 0.8));
  const centre = (timestamp: number) => x(timestamp + bucketSeconds / 2);

  const marks: Mark[] = [];
  let line = '';
  let drawing = false;
  points.forEach((point, index) => {
    if (point.value === null) {
      drawing = false;
      return;
    }
    const mark = { index, x: centre(point.timestamp), y: y(point.value), barX: centre(point.timestamp) - barWidth / 2, barWidth };
    marks.push(mark);
    line += `${drawing ? 'L' : 'M'}${round(mark.x)},${round(mark.y)}`;
    drawing = true;
  });

  // Time labels of one resolution are all as long as the first.
  const labelPx = options.xLabel(first).length * LABEL_CHAR_PX;
  const xTicks = timeTicks(first, last, bucketSeconds, Math.max(1, Math.floor((right - left) / (labelPx + 24)))).map((timestamp) => {
    const label = options.xLabel(timestamp);
    const half = (label.length * LABEL_CHAR_PX) / 2;
    return { at: Math.min(width - half, Math.max(half, centre(timestamp))), label };
  });

  return {
    marks,
    line,
    baseline: y(0),
    left,
    right,
    top,
    bottom,
    yTicks: scale.ticks.map((value, i) => ({ at: y(value), label: yLabels[i]! })),
    xTicks,
  };
}

/** Maps `domain` onto `range` linearly; an empty domain maps everything to the range's middle. */
export function linearScale([d0, d1]: [number, number], [r0, r1]: [number, number]): (value: number) => number {
  if (d1 === d0) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) / (d1 - d0)) * (r1 - r0);
}

/**
 * Round axis values covering `lo`…`hi` in about `count` steps of 1, 2 or 5 × 10ⁿ (whole numbers
 * when `integer`), and the decimals a step needs. A flat range at zero gets one step above it.
 */
export function niceTicks(lo: number, hi: number, count: number, integer = false): { ticks: number[]; decimals: number } {
  const top = hi > lo ? hi : lo + 1;
  const rough = (top - lo) / Math.max(1, count);
  let power = Math.floor(Math.log10(rough));
  // The multiple nearest the rough step (on a log scale: thresholds at √2, √10, √50).
  const error = rough / 10 ** power;
  let multiple = error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.SQRT2 ? 2 : 1;
  if (multiple === 10) [multiple, power] = [1, power + 1];
  if (integer && power < 0) [multiple, power] = [1, 0];
  const step = multiple * 10 ** power;
  const decimals = Math.max(0, -power);
  const start = Math.floor(lo / step);
  const end = Math.ceil(top / step);
  const ticks: number[] = [];
  for (let i = start; i <= end; i++) ticks.push(Number((i * step).toFixed(decimals)));
  return { ticks, decimals };
}

const HOUR = 3600;
/** Spacings of time ticks, in hours: whole hours, days, weeks, months of four weeks, quarters, years. */
const TIME_STEPS_HOURS = [1, 2, 3, 6, 12, 24, 48, 7 * 24, 14 * 24, 28 * 24, 91 * 24, 182 * 24, 364 * 24];

/**
 * At most `count` bucket starts between `first` and `last` (inclusive) to label, evenly spaced on
 * round steps of whole buckets (every 6 hours, every week…); `first` itself where no step lands
 * in the range.
 */
export function timeTicks(first: number, last: number, bucketSeconds: number, count: number): number[] {
  const span = last - first;
  const fits = (step: number) => step % bucketSeconds === 0 && Math.floor(span / step) + 1 <= count;
  const step =
    TIME_STEPS_HOURS.map((hours) => hours * HOUR).find(fits) ?? (count > 1 ? Math.ceil(span / (count - 1) / bucketSeconds) * bucketSeconds : span + bucketSeconds);
  const ticks: number[] = [];
  for (let at = Math.ceil(first / step) * step; at <= last; at += step) ticks.push(at);
  return ticks.length > 0 ? ticks : [first];
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
