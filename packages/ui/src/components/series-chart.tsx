import { useState } from 'preact/hooks';
import { v1 } from '../api.js';
import { bucketLabel, latestOf, MEASURES, shapeOf, titleOf } from '../chart-series.js';
import { useLoad } from '../load.js';
import type { Chart, ChartSeries } from '../records.js';
import { ChartSvg } from './chart-svg.js';
import { Tabs } from './details.js';
import { Loaded } from './states.js';

type Resolution = Chart['resolution'];

/** Charts of `series` side by side (of `token`, when given), by day or by hour as the reader picks. */
export function SeriesCharts({ series, token, label }: { series: ChartSeries[]; token?: string; label: string }) {
  const [resolution, setResolution] = useState<Resolution>('day');
  return (
    <section aria-label={label}>
      <Tabs label="Chart resolution" current={resolution} onChange={setResolution} tabs={[['day', 'Per day'], ['hour', 'Per hour']]} />
      <div class="chart-grid">
        {series.map((one) => (
          // A token's series of unknown values (a token without a price source) is left out.
          <SeriesChart key={one.name} series={one} resolution={resolution} token={token} hideUnknown={token !== undefined} />
        ))}
      </div>
    </section>
  );
}

/**
 * One series over the API's default range (the last year of days, or week of hours): its title
 * and latest value above the chart, or why there is nothing to draw. `hideUnknown` leaves the
 * figure out once the series proves to have no known value.
 */
export function SeriesChart({
  series,
  resolution,
  token,
  height = 200,
  hideUnknown = false,
}: {
  series: Pick<ChartSeries, 'name' | 'unit'>;
  resolution: Resolution;
  token?: string;
  height?: number;
  hideUnknown?: boolean;
}) {
  const chart = useLoad(() => v1<Chart>(`stats/charts/${series.name}`, { resolution, token }), [series.name, resolution, token]);
  const title = titleOf(series.name);
  const measure = MEASURES[series.unit];
  const latest = chart.state === 'done' ? latestOf(chart.data.points) : null;
  if (hideUnknown && chart.state === 'done' && latest === null) return null;
  // By the answer's own resolution: for a moment after a switch, the older answer is still shown.
  const latestDate = latest && chart.state === 'done' ? bucketLabel(latest.timestamp, chart.data.resolution) : '';
  return (
    <figure class="chart-card">
      <figcaption>
        <span class="name">
          {title}
          {measure.axisUnit && <span class="muted"> ({measure.axisUnit})</span>}
        </span>
        {latest && (
          <span class="latest">
            {measure.text(latest.value)} <span class="muted">on {latestDate}</span>
          </span>
        )}
      </figcaption>
      {/* As tall while loading as when drawn, so the page does not jump when the resolution changes. */}
      <div class="chart-body" style={{ minHeight: height }}>
        <Loaded loading={chart} what={`the ${title.toLowerCase()} chart`}>
          {(data) =>
            latest === null ? (
              <p class="chart-empty">
                {data.points.length === 0 ? 'Nothing to chart yet: no block in this range has been indexed.' : `No ${title.toLowerCase()} is known for this range.`}
              </p>
            ) : (
              <ChartSvg
                chart={data}
                measure={measure}
                shape={shapeOf(series.name)}
                height={height}
                label={`${title}, by ${data.resolution} (UTC): latest ${measure.text(latest.value)} on ${latestDate}`}
              />
            )
          }
        </Loaded>
      </div>
    </figure>
  );
}
