import { v1 } from '../api.js';
import { PageTitle } from '../components/layout.js';
import { SeriesCharts } from '../components/series-chart.js';
import { Loaded } from '../components/states.js';
import { useLoad } from '../load.js';
import type { ChartSeries } from '../records.js';

/** The chain's statistics over time: every series the server keeps that is not of one token. */
export function ChartsPage() {
  const series = useLoad(() => v1<ChartSeries[]>('stats/charts'), []);
  return (
    <>
      <PageTitle sub="The chain's activity over time, from the blocks indexed so far">Charts</PageTitle>
      <Loaded loading={series} what="the list of charts">
        {(all) => <SeriesCharts label="Chain statistics" series={all.filter((one) => one.token !== 'required')} />}
      </Loaded>
    </>
  );
}
