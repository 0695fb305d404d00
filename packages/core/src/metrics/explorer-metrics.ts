import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { EventHub } from '../events/index.js';
import type { RequestOutcome } from '../http/kernel.js';
import type { IndexerStatus } from '../indexer/indexer.js';
import type { SocketStats } from '../sockets/gateway.js';
import type { ChainCursors } from '../storage/index.js';
import { RateWindow } from './rate-window.js';
import { RequestSeries } from './request-series.js';

/** What {@link ExplorerMetrics} reads its figures from. */
export interface ExplorerMetricsSources {
  indexer: { readonly status: Readonly<IndexerStatus> };
  storage: ChainCursors;
  /**
   * The block through which every stored block's call traces are stored, as `/health` tells it
   * (`HealthService.tracedBlock`): `null` where nothing is traced, and then the trace gauges have
   * no sample.
   */
  tracedBlock: () => Promise<bigint | null>;
  hub: EventHub;
  /**
   * Open WebSocket connections per path and what each endpoint counts (the channel protocol:
   * subscriptions per channel); without it the WebSocket gauges are not exported.
   */
  sockets?: () => SocketStats;
}

/** Seconds of block events the blocks-per-second gauge averages over. */
const RATE_WINDOW_SECONDS = 10;

/**
 * How often the event-loop lag (`nodejs_eventloop_lag_*`) is sampled. prom-client's 10 ms woke an
 * idle process 100 times a second (about 90% of an idle explorer's event-loop wakeups) and a busy
 * one as often; ten samples a second still give each 15 s scrape 150, and a stall still shows as
 * the delay of the sample after it.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * The explorer's Prometheus metrics, in a registry of its own (several explorers in one process
 * never share series): requests and latency per route pattern, the indexer's head, indexed block,
 * lag and rate, the traced block and trace lag, reorgs, rate-limit rejections, WebSocket
 * connections and subscriptions, and Node's process figures. A figure not known (no head seen
 * yet, nothing indexed or traced) has no sample rather than a 0.
 *
 * @example
 * ```ts
 * import { Counter } from 'prom-client';
 * const signups = new Counter({ name: 'myapp_signups_total', help: 'Sign-ups', registers: [explorer.metrics!.registry] });
 * ```
 */
export class ExplorerMetrics {
  /** The registry `GET /metrics` renders. */
  readonly registry = new Registry();
  private readonly requests = new RequestSeries([0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  private readonly rejections: Counter;
  private readonly blockRate = new RateWindow(RATE_WINDOW_SECONDS);

  constructor(sources: ExplorerMetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    this.requests.register(this.registry);
    this.rejections = new Counter({ name: 'chainlens_rate_limit_rejections_total', help: 'Requests refused with 429 by the rate-limit tiers', registers });
    const blocks = new Counter({ name: 'chainlens_indexer_blocks_total', help: 'Blocks written to storage by this instance', registers });
    const reorgs = new Counter({ name: 'chainlens_reorgs_total', help: 'Chain reorganisations rolled back', registers });
    const reorgDepth = new Counter({ name: 'chainlens_reorg_removed_blocks_total', help: 'Blocks removed by reorganisations', registers });
    sources.hub.on('block', () => {
      blocks.inc();
      this.blockRate.record();
    });
    sources.hub.on('reorg', (reorg) => {
      reorgs.inc();
      reorgDepth.inc(reorg.removedBlockHashes.length);
    });
    const { indexer, storage, tracedBlock } = sources;
    const blockRate = this.blockRate;
    new Gauge({
      name: 'chainlens_indexer_head_block',
      help: "The node's head as the indexer last saw it",
      registers,
      collect() {
        const { head } = indexer.status;
        sample(this, head === null ? null : Number(head));
      },
    });
    new Gauge({
      name: 'chainlens_indexer_indexed_block',
      help: 'The newest block in storage',
      registers,
      async collect() {
        const cursor = await storage.getCursor();
        sample(this, cursor ? Number(cursor.number) : null);
      },
    });
    new Gauge({
      name: 'chainlens_indexer_lag_blocks',
      help: "Blocks between the node's head and the newest block in storage",
      registers,
      async collect() {
        const { head } = indexer.status;
        const cursor = await storage.getCursor();
        sample(this, head === null ? null : Math.max(0, Number(head - (cursor?.number ?? -1n))));
      },
    });
    new Gauge({
      name: 'chainlens_indexer_traced_block',
      help: "The block through which every stored block's call traces are stored",
      registers,
      async collect() {
        const traced = await tracedBlock();
        sample(this, traced === null ? null : Number(traced));
      },
    });
    new Gauge({
      name: 'chainlens_indexer_trace_lag_blocks',
      help: 'Blocks stored whose call traces are not stored yet',
      registers,
      async collect() {
        const [cursor, traced] = await Promise.all([storage.getCursor(), tracedBlock()]);
        sample(this, cursor && traced !== null ? Math.max(0, Number(cursor.number - traced)) : null);
      },
    });
    new Gauge({
      name: 'chainlens_indexer_blocks_per_second',
      help: `Blocks written per second over the last ${RATE_WINDOW_SECONDS} s`,
      registers,
      collect() {
        this.set(blockRate.perSecond());
      },
    });
    const { sockets } = sources;
    if (sockets) {
      new Gauge({
        name: 'chainlens_websocket_connections',
        help: 'Open WebSocket connections, by endpoint path',
        labelNames: ['path'],
        registers,
        collect() {
          this.reset();
          for (const [path, count] of Object.entries(sockets().connectionsByPath)) this.set({ path }, count);
        },
      });
      new Gauge({
        name: 'chainlens_websocket_subscriptions',
        help: 'Subscriptions on open WebSocket connections, by endpoint path and channel',
        labelNames: ['path', 'channel'],
        registers,
        collect() {
          this.reset();
          for (const [path, counts] of Object.entries(sockets().endpoints)) {
            for (const [channel, count] of Object.entries(counts)) this.set({ path, channel }, count);
          }
        },
      });
    }
  }

  /** Counts one answered request under its route pattern (unknown paths share one series). */
  observeRequest(outcome: RequestOutcome): void {
    this.requests.observe(outcome);
  }

  /** Counts one request the rate-limit tiers refused. */
  rateLimited(): void {
    this.rejections.inc();
  }

  /** The Prometheus text exposition of every series. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}

/** Sets a gauge without labels, or leaves it without a sample while its value is not known (prom-client would show 0). */
function sample(gauge: Gauge, value: number | null): void {
  if (value === null) gauge.remove();
  else gauge.set(value);
}
