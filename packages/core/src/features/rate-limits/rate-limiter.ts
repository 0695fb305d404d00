import type { Principal } from '../../auth/principal.js';
import { DAY_MS, MINUTE_MS, secondsUntil, windowAt, type Window } from '../../counters/windows.js';
import type { CounterStore } from './batched-counters.js';
import type { CounterHit } from '../../storage/index.js';
import type { RateLimitOutcome } from '../../http/kernel.js';
import { after } from '../../http/maybe-async.js';

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
  /** Counter keys by client address and by account: a request's keys are not built and hashed anew each time. */
  private readonly anonymousKeys = new Map<string, SubjectKeys>();
  private readonly accountKeys = new Map<string, SubjectKeys>();
  private windows: Windows | null = null;

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
    const windows = this.windowsAt(now);
    if (principal === null) return this.count(this.keysOf(this.anonymousKeys, 'ip:', ip, windows), this.options.anonymous, weight, windows, now);
    const tier = principal.user.roles.includes('premium') ? this.options.premium : this.options.authenticated;
    const account = this.keysOf(this.accountKeys, 'user:', principal.user.id, windows);
    if (principal.kind === 'jwt' || principal.key.rateLimitPerMinute === null) return this.count(account, tier, weight, windows, now);
    const share = principal.key.rateLimitPerMinute;
    // The key's share first: a request it refuses spends none of the account's allowance, so a
    // capped key that keeps calling cannot starve the owner's other credentials.
    const { minute } = windows;
    return after(this.counters.hitCounters([{ key: `rate:m:key:${principal.key.id}:${minute.index}`, amount: weight, expiresAt: minute.end }], now), ([onKey = 0]) => {
      if (onKey > share) return { limit: share, remaining: 0, reset: Math.ceil(minute.end / 1000), exceeded: true, retryAfter: secondsUntil(minute.end, now) };
      return after(this.count(account, { perMinute: Math.max(tier.perMinute, share), perDay: tier.perDay }, weight, windows, now), (state) => ({
        ...state,
        limit: share,
        remaining: Math.min(state.remaining, share - onKey),
      }));
    });
  }

  /** Counts `weight` requests of a subject in its minute and day windows, against `allowance`. */
  private count(keys: SubjectKeys, allowance: Allowance, weight: number, windows: Windows, now: number): RateLimitState | Promise<RateLimitState> {
    const { minute, day } = windows;
    const hits =
      weight === 1
        ? keys.single
        : [
            { key: keys.minute, amount: weight, expiresAt: minute.end },
            { key: keys.day, amount: weight, expiresAt: day.end },
          ];
    const counted = this.counters.hitCounters(hits, now);
    if (counted instanceof Promise) return counted.then(([inMinute = 0, inDay = 0]) => stateOf(allowance, minute, day, inMinute, inDay, now));
    // Counted at once (held counters): no callback is built for it.
    return stateOf(allowance, minute, day, counted[0] ?? 0, counted[1] ?? 0, now);
  }

  /** The minute and day windows at `now`, computed again only when `now` leaves them. */
  private windowsAt(now: number): Windows {
    const kept = this.windows;
    if (kept !== null && now >= kept.minute.end - MINUTE_MS && now < kept.minute.end && now < kept.day.end) return kept;
    // A new minute: the counter keys kept for the last one name windows no longer counted.
    this.anonymousKeys.clear();
    this.accountKeys.clear();
    return (this.windows = { minute: windowAt(now, MINUTE_MS), day: windowAt(now, DAY_MS) });
  }

  /** `id`'s counter keys in `windows`, built once a minute per caller rather than on every request. */
  private keysOf(kept: Map<string, SubjectKeys>, kind: string, id: string, windows: Windows): SubjectKeys {
    let keys = kept.get(id);
    if (keys === undefined) {
      // Bounded: a burst of new callers starts the map afresh (their keys are only built again).
      if (kept.size >= MAX_KEPT_SUBJECTS) kept.clear();
      const minute = `rate:m:${kind}${id}:${windows.minute.index}`;
      const day = `rate:d:${kind}${id}:${windows.day.index}`;
      const single = [
        { key: minute, amount: 1, expiresAt: windows.minute.end },
        { key: day, amount: 1, expiresAt: windows.day.end },
      ];
      keys = { minute, day, single };
      kept.set(id, keys);
    }
    return keys;
  }
}

/** Counter keys of one caller in the current windows. */
interface SubjectKeys {
  minute: string;
  day: string;
  /** The hits of a request of weight 1 (most of them) in both windows, built with the keys; never changed. */
  single: CounterHit[];
}

interface Windows {
  minute: Window;
  day: Window;
}

/** Callers whose counter keys are kept at once. */
const MAX_KEPT_SUBJECTS = 10_000;

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
