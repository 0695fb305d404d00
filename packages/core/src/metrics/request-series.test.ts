import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { RequestOutcome } from '../http/kernel.js';
import type { Route } from '../http/route.js';
import { RequestSeries } from './request-series.js';

const route = { method: 'GET', path: '/api/v1/block/:number' } as Route;

function outcome(status: number, durationMs: number, matched: Route | null = route): RequestOutcome {
  return { request: { method: 'GET', url: '/x', headers: {}, ip: '127.0.0.1' }, route: matched, requestId: 'r', status, durationMs };
}

function setup() {
  const series = new RequestSeries([0.001, 0.01, 0.1]);
  const registry = new Registry();
  series.register(registry);
  return { series, registry };
}

describe('RequestSeries', () => {
  it('renders counts by status and a cumulative latency histogram per route pattern, as Prometheus text', async () => {
    const { series, registry } = setup();
    for (const [status, ms] of [
      [200, 0.5],
      [200, 5],
      [404, 50],
      [200, 500],
    ] as const) {
      series.observe(outcome(status, ms));
    }
    series.observe(outcome(404, 2, null));
    const text = await registry.metrics();
    const labels = 'method="GET",route="/api/v1/block/:number"';
    expect(text).toContain('# TYPE chainlens_http_requests_total counter');
    expect(text).toContain(`chainlens_http_requests_total{${labels},status="200"} 3`);
    expect(text).toContain(`chainlens_http_requests_total{${labels},status="404"} 1`);
    expect(text).toContain('chainlens_http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).toContain('# TYPE chainlens_http_request_duration_seconds histogram');
    for (const [le, count] of [
      ['0.001', 1],
      ['0.01', 2],
      ['0.1', 3],
      ['+Inf', 4],
    ] as const) {
      expect(text).toContain(`chainlens_http_request_duration_seconds_bucket{le="${le}",${labels}} ${count}`);
    }
    expect(text).toContain(`chainlens_http_request_duration_seconds_sum{${labels}} 0.5555`);
    expect(text).toContain(`chainlens_http_request_duration_seconds_count{${labels}} 4`);
  });

  it('starts each metric from zero when the registry resets it, and counts on afterwards', async () => {
    const { series, registry } = setup();
    series.observe(outcome(200, 5));
    registry.resetMetrics();
    expect(await registry.metrics()).not.toMatch(/^chainlens_http_requests_total\{/m);
    expect(await registry.metrics()).toContain('chainlens_http_request_duration_seconds_count{method="GET",route="/api/v1/block/:number"} 0');
    series.observe(outcome(200, 5));
    expect(await registry.metrics()).toContain('chainlens_http_requests_total{method="GET",route="/api/v1/block/:number",status="200"} 1');
  });

  it('appears in a merged registry as in its own', async () => {
    const { series, registry } = setup();
    series.observe(outcome(200, 5));
    const merged = Registry.merge([registry, new Registry()]);
    expect(await merged.metrics()).toContain('chainlens_http_request_duration_seconds_count{method="GET",route="/api/v1/block/:number"} 1');
  });
});
