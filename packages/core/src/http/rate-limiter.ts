import type { Principal } from '../auth/principal.js';
import { DAY_MS, MINUTE_MS, secondsUntil, windowAt, type Window } from '../counters/windows.js';
import type { CounterStore } from '../counters/batched-counters.js';
import type { RateLimitOutcome } from './kernel.js';
import { after } from './maybe-async.js';

/** Requests per minute and per day. */
export interface Allowance {
  perMinute: number;
  perDay: number;
}

/** Options of {@link RateLimiter}; every figure is configurable (`rateLimits` in the config). */
export interface RateLimiterOptions {
  anonymous: Allowance;
  authenticated: Allowance;
  premium: Allowance;
  now: () => number;
}

/** Where a caller stands after a request, as the `X-RateLimit-*` headers tell it. */
export interface RateLimitState {
  /** The per-minute allowance. */
  limit: number;
  /** The smaller of what is left this minute and this day. */
  remaining: number;
  /** Unix seconds at which the binding window ends. */
  reset: number;
  exceeded: boolean;
  /** Whole seconds until `reset`, at least 1. */
  retryAfter: number;
}

/**
 * The tiers of the spec. Anonymous callers are counted per IP; authenticated ones per account:
 * every request of a user counts against that user's allowance (the authenticated or premium
 * tier), whichever of their keys or tokens it came with, so more keys never mean more requests.
 *
 * A key's own per-minute figure (`rateLimitPerMinute`, set by an admin) is that key's share,
 * counted on the key, on top of the account's allowance: a request with the key passes while the
 * key's count is within its figure and the account's count within the larger of the tier's
 * per-minute allowance and the figure. A figure below the tier therefore only caps the key; one
 * above it is the admin's grant, which only that key's requests may use (the account's other
 * credentials still stop at the tier). The day's allowance is always the account's tier.
 *
 * Counters live in storage (fixed windows, see `windows.ts`), so every instance on one storage
 * shares them; `counters` may hold them in process and flush them in batches
 * ({@link BatchedCounters}), answering without a storage round trip.
 */
export class RateLimiter {
  constructor(
    private readonly counters: CounterStore,
    private readonly options: RateLimiterOptions,
  ) {}

  /**
   * Counts `weight` requests of `principal` (or of `ip` when anonymous) and answers the state
   * after them; over the allowance, all of them are refused. Answers at once, without a promise,
   * when the counters do.
   */
  hit(principal: Principal | null, ip: string, weight = 1): RateLimitState | Promise<RateLimitState> {
    const now = this.options.now();
    if (principal === null) return this.count(`ip:${ip}`, this.options.anonymous, weight, now);
    const tier = principal.user.roles.includes('premium') ? this.options.premium : this.options.authenticated;
    const account = `user:${principal.user.id}`;
    if (principal.kind === 'jwt' || principal.key.rateLimitPerMinute === null) return this.count(account, tier, weight, now);
    const share = principal.key.rateLimitPerMinute;
    // The key's share first: a request it refuses spends none of the account's allowance, so a
    // capped key that keeps calling cannot starve the owner's other credentials.
    const minute = windowAt(now, MINUTE_MS);
    return after(this.counters.hitCounters([{ key: `rate:m:key:${principal.key.id}:${minute.index}`, amount: weight, expiresAt: minute.end }], now), ([onKey = 0]) => {
      if (onKey > share) return { limit: share, remaining: 0, reset: Math.ceil(minute.end / 1000), exceeded: true, retryAfter: secondsUntil(minute.end, now) };
      return after(this.count(account, { perMinute: Math.max(tier.perMinute, share), perDay: tier.perDay }, weight, now), (state) => ({
        ...state,
        limit: share,
        remaining: Math.min(state.remaining, share - onKey),
      }));
    });
  }

  /** Counts `weight` requests of `subject` in its minute and day windows, against `allowance`. */
  private count(subject: string, allowance: Allowance, weight: number, now: number): RateLimitState | Promise<RateLimitState> {
    const minute = windowAt(now, MINUTE_MS);
    const day = windowAt(now, DAY_MS);
    const counted = this.counters.hitCounters(
      [
        { key: `rate:m:${subject}:${minute.index}`, amount: weight, expiresAt: minute.end },
        { key: `rate:d:${subject}:${day.index}`, amount: weight, expiresAt: day.end },
      ],
      now,
    );
    return after(counted, ([inMinute = 0, inDay = 0]) => stateOf(allowance, minute, day, inMinute, inDay, now));
  }
}

/** Where a caller stands with `inMinute` and `inDay` requests counted in its windows. */
function stateOf(allowance: Allowance, minute: Window, day: Window, inMinute: number, inDay: number, now: number): RateLimitState {
  const dayExceeded = inDay > allowance.perDay;
  const exceeded = dayExceeded || inMinute > allowance.perMinute;
  const resetMs = dayExceeded ? day.end : minute.end;
  return {
    limit: allowance.perMinute,
    remaining: Math.max(0, Math.min(allowance.perMinute - inMinute, allowance.perDay - inDay)),
    reset: Math.ceil(resetMs / 1000),
    exceeded,
    retryAfter: secondsUntil(resetMs, now),
  };
}

/** The response headers of a state: the three `X-RateLimit-*` fields. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.reset),
  };
}

/** The kernel's view of a state: headers for every answer, and whether to answer 429. */
export function rateLimitOutcome(state: RateLimitState): RateLimitOutcome {
  return { headers: rateLimitHeaders(state), retryAfter: state.exceeded ? state.retryAfter : null };
}
