import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { layoutChart } from '../chart-geometry.js';
import { axisLabel, BUCKET_SECONDS, bucketLabel, type Measure } from '../chart-series.js';
import type { Chart } from '../records.js';

/**
 * A series drawn as inline SVG, as wide as its box: bars or a line with a dot per value, value
 * and date axes, and a tooltip (`<title>`) on each mark. To assistive technology it is one image
 * named by `label`.
 */
export function ChartSvg({ chart, measure, shape, label, height }: { chart: Chart; measure: Measure; shape: 'line' | 'bars'; label: string; height: number }) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  return (
    <div class="chart-box" ref={box} style={{ height }}>
      {width > 0 && <Drawing chart={chart} measure={measure} shape={shape} label={label} width={width} height={height} />}
    </div>
  );
}

function Drawing({ chart, measure, shape, label, width, height }: { chart: Chart; measure: Measure; shape: 'line' | 'bars'; label: string; width: number; height: number }) {
  const { resolution, points } = chart;
  // Laid out again only when the data or the size changes: pages around it re-render every second (ages).
  const layout = useMemo(
    () =>
      layoutChart(
        points.map((point) => ({ timestamp: Number(point.timestamp), value: point.value === null ? null : measure.number(point.value) })),
        { width, height, bucketSeconds: BUCKET_SECONDS[resolution], integer: measure.integer, yLabel: measure.tick, xLabel: (timestamp) => axisLabel(timestamp, resolution) },
      ),
    [points, resolution, measure, width, height],
  );
  const { marks, baseline, left, right, bottom } = layout;
  const dotRadius = Math.min(3.5, Math.max(1.5, (marks[0]?.barWidth ?? 0) / 3));
  const tooltip = (index: number) => `${bucketLabel(points[index]!.timestamp, resolution)}: ${measure.text(points[index]!.value!)}`;
  return (
    <svg class="chart" width={width} height={height} role="img" aria-label={label}>
      <title>{label}</title>
      <g class="grid">
        {layout.yTicks.map((tick) => (
          <line key={tick.label} x1={left} x2={right} y1={tick.at} y2={tick.at} />
        ))}
      </g>
      <g class="axis y">
        {layout.yTicks.map((tick) => (
          <text key={tick.label} x={left - 6} y={tick.at} dy="0.32em" text-anchor="end">
            {tick.label}
          </text>
        ))}
      </g>
      <g class="axis x">
        <line x1={left} x2={right} y1={baseline} y2={baseline} />
        {layout.xTicks.map((tick) => (
          <text key={tick.label} x={tick.at} y={bottom + 16} text-anchor="middle">
            {tick.label}
          </text>
        ))}
      </g>
      {shape === 'bars' ? (
        <g class="marks">
          {marks.map((mark) => (
            <rect key={mark.index} class="mark bar" x={mark.barX} width={mark.barWidth} y={Math.min(mark.y, baseline)} height={Math.abs(baseline - mark.y)}>
              <title>{tooltip(mark.index)}</title>
            </rect>
          ))}
        </g>
      ) : (
        <g class="marks">
          <path class="line" d={layout.line} />
          {marks.map((mark) => (
            <circle key={mark.index} class="mark dot" cx={mark.x} cy={mark.y} r={dotRadius}>
              <title>{tooltip(mark.index)}</title>
            </circle>
          ))}
        </g>
      )}
    </svg>
  );
}

/** The element's width in CSS pixels, following it as the window resizes (0 until measured). */
function useWidth(element: { current: HTMLElement | null }): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const target = element.current;
    if (!target) return;
    const observer = new ResizeObserver(([entry]) => entry && setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(target);
    return () => observer.disconnect();
  }, []);
  return width;
}
