import { defineRoute, textFormat, type Route } from '../http/index.js';
import type { ExplorerMetrics } from './explorer-metrics.js';

/** The Prometheus text exposition format's content type. */
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * `GET /metrics`: every series in Prometheus text. With `scope` set, only callers holding it
 * (a JWT or API key of an admin) are answered; `null` leaves it public.
 */
export function metricsRoutes(metrics: ExplorerMetrics, scope: 'admin' | null): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/metrics',
      auth: scope === null ? 'none' : 'user',
      ...(scope === null ? {} : { scope }),
      summary: 'Prometheus metrics: requests and latency per route, indexer head, lag and rate, reorgs, rate-limit rejections, WebSocket figures',
      format: textFormat(PROMETHEUS_TEXT),
      handler: () => metrics.render(),
    }),
  ];
}
