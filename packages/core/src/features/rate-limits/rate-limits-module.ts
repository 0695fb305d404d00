import { clientIp, type HttpKernelOptions, type HttpRequest } from '../../http/index.js';
import { after } from '../../http/maybe-async.js';
import { Signal, type ExplorerModule } from '../../modules/index.js';
import { BatchedCounters } from './batched-counters.js';
import { RateLimiter, rateLimitOutcome, type RateLimitState } from './rate-limiter.js';
import type { RateLimitsConfig } from './rate-limits-config.js';

/** What the rate-limits module gives the modules after it. */
export interface RateLimits {
  /** The client's address, behind the configured number of trusted proxies. */
  clientIp: (request: HttpRequest) => string;
  /** The kernel's rate-limit hook; `undefined` when limits are off. */
  rateLimit: HttpKernelOptions['rateLimit'];
  /** A request refused with 429. */
  rejected: Signal<void>;
  /** Writes the counts held here to storage and reads back the shared totals now. */
  flush(): Promise<void>;
}

/** The request allowances of the API tiers, counted across a cluster in storage. */
export const rateLimitsModule: ExplorerModule<{ config: { rateLimits: RateLimitsConfig; clock: () => number } }, RateLimits, never, 'CounterStorage'> = {
  name: 'rate-limits',
  register(app, { config }) {
    const limits = config.rateLimits;
    const ipOf = (request: HttpRequest) => clientIp(request, limits.trustedProxyHops);
    // Tier counts are held here and flushed on a beat: a storage write per request would cost a round trip each.
    const counters =
      limits.enabled && limits.flushIntervalMs > 0
        ? new BatchedCounters(app.writer, {
            flushIntervalMs: limits.flushIntervalMs,
            now: config.clock,
            onFlushError: (error) => app.logger.warn({ err: error }, 'rate-limit counts could not be flushed; they are sent on the next beat'),
          })
        : null;
    const limiter = limits.enabled ? new RateLimiter(counters ?? app.writer, { ...limits, now: config.clock }) : null;
    const rejected = new Signal<void>();
    // Built once, not per request.
    const toOutcome = (state: RateLimitState) => {
      const outcome = rateLimitOutcome(state);
      if (outcome.retryAfter !== null) rejected.emit();
      return outcome;
    };
    app.onClose(() => counters?.close());
    return {
      clientIp: ipOf,
      rateLimit: limiter ? (request, principal, weight) => after(limiter.hit(principal, ipOf(request), weight), toOutcome) : undefined,
      rejected,
      flush: async () => counters?.flush(),
    };
  },
};
