import type { Metric, Registry } from 'prom-client';
import type { RequestOutcome } from '../http/kernel.js';
import type { Route } from '../http/route.js';

/** One route pattern's requests: counts by status and the latency histogram, as plain numbers. */
interface RouteTally {
  labels: { method: string; route: string };
  byStatus: Map<number, number>;
  /** Requests at or under each bound, per bound (not cumulative). */
  buckets: number[];
  sum: number;
  count: number;
}

/** A series of a metric as prom-client's registry renders it. */
interface SeriesValue {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

const UNMATCHED = 'unmatched';

/**
 * Requests answered and their latency, by route pattern (and status for the count): the
 * `chainlens_http_requests_total` counter and `chainlens_http_request_duration_seconds`
 * histogram. Counting is a few additions per request, on the hot path; prom-client's own
 * `observe` and `inc` hash their labels on every call (a few microseconds, measured as 4% of a
 * cached answer's cost), so the figures are kept here and handed to the registry when scraped.
 */
export class RequestSeries {
  readonly #tallies = new Map<Route | string, RouteTally>();

  /** @param bounds - the histogram's bucket upper bounds in seconds, ascending. */
  constructor(private readonly bounds: readonly number[]) {}

  /** Counts one answered request. */
  observe(outcome: RequestOutcome): void {
    const key = outcome.route ?? outcome.request.method;
    let tally = this.#tallies.get(key);
    if (!tally) {
      const labels = { method: outcome.route?.method ?? outcome.request.method, route: outcome.route?.path ?? UNMATCHED };
      tally = { labels, byStatus: new Map(), buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      this.#tallies.set(key, tally);
    }
    tally.byStatus.set(outcome.status, (tally.byStatus.get(outcome.status) ?? 0) + 1);
    const seconds = outcome.durationMs / 1000;
    tally.sum += seconds;
    tally.count++;
    for (let i = 0; i < this.bounds.length; i++) {
      if (seconds <= this.bounds[i]!) {
        tally.buckets[i]!++;
        break;
      }
    }
  }

  /** Adds both metrics to `registry`. */
  register(registry: Registry): void {
    const requests = this.#metric('chainlens_http_requests_total', 'HTTP requests answered, by route pattern and status', 'counter', () => this.#requestValues(), (tally) => {
      tally.byStatus.clear();
    });
    const durations = this.#metric('chainlens_http_request_duration_seconds', 'Time from receiving a request to its answer, by route pattern', 'histogram', () => this.#durationValues(), (tally) => {
      tally.buckets.fill(0);
      tally.sum = 0;
      tally.count = 0;
    });
    // The registry renders any metric that answers get() and reset(); its types name only its own classes.
    registry.registerMetric(requests as unknown as Metric);
    registry.registerMetric(durations as unknown as Metric);
  }

  #metric(name: string, help: string, type: 'counter' | 'histogram', values: () => SeriesValue[], reset: (tally: RouteTally) => void) {
    return {
      name,
      help,
      type,
      aggregator: 'sum' as const,
      get: async () => ({ name, help, type, aggregator: 'sum' as const, values: values() }),
      reset: () => {
        for (const tally of this.#tallies.values()) reset(tally);
      },
    };
  }

  #requestValues(): SeriesValue[] {
    const values: SeriesValue[] = [];
    for (const { labels, byStatus } of this.#tallies.values()) {
      for (const [status, count] of byStatus) values.push({ metricName: 'chainlens_http_requests_total', labels: { ...labels, status: String(status) }, value: count });
    }
    return values;
  }

  #durationValues(): SeriesValue[] {
    const name = 'chainlens_http_request_duration_seconds';
    const values: SeriesValue[] = [];
    for (const { labels, buckets, sum, count } of this.#tallies.values()) {
      let cumulative = 0;
      for (const [i, bound] of this.bounds.entries()) {
        cumulative += buckets[i]!;
        values.push({ metricName: `${name}_bucket`, labels: { le: bound, ...labels }, value: cumulative });
      }
      values.push(
        { metricName: `${name}_bucket`, labels: { le: '+Inf', ...labels }, value: count },
        { metricName: `${name}_sum`, labels, value: sum },
        { metricName: `${name}_count`, labels, value: count },
      );
    }
    return values;
  }
}
