import type { Principal } from '../auth/principal.js';
import type { RateLimitOutcome } from '../http/kernel.js';
import type { Storage } from '../storage/index.js';
import { DAY_MS, MINUTE_MS, windowAt } from './windows.js';

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
 * The tiers of the spec: anonymous callers per IP, authenticated ones per user (JWT) or per key,
 * premium users higher, and a key's own per-minute limit where an admin set one. Counters live in
 * storage (fixed windows, see `windows.ts`), so every instance on one storage shares them.
 */
export class RateLimiter {
  constructor(
    private readonly storage: Storage,
    private readonly options: RateLimiterOptions,
  ) {}

  /**
   * Counts `weight` requests of `principal` (or of `ip` when anonymous) and answers the state
   * after them; over the allowance, all of them are refused.
   */
  async hit(principal: Principal | null, ip: string, weight = 1): Promise<RateLimitState> {
    const now = this.options.now();
    const { subject, allowance } = this.tier(principal, ip);
    const minute = windowAt(now, MINUTE_MS);
    const day = windowAt(now, DAY_MS);
    const [inMinute = 0, inDay = 0] = await this.storage.hitCounters(
      [
        { key: `rate:m:${subject}:${minute.index}`, amount: weight, expiresAt: minute.end },
        { key: `rate:d:${subject}:${day.index}`, amount: weight, expiresAt: day.end },
      ],
      now,
    );
    const dayExceeded = inDay > allowance.perDay;
    const exceeded = dayExceeded || inMinute > allowance.perMinute;
    const resetMs = dayExceeded ? day.end : minute.end;
    return {
      limit: allowance.perMinute,
      remaining: Math.max(0, Math.min(allowance.perMinute - inMinute, allowance.perDay - inDay)),
      reset: Math.ceil(resetMs / 1000),
      exceeded,
      retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }

  private tier(principal: Principal | null, ip: string): { subject: string; allowance: Allowance } {
    if (principal === null) return { subject: `ip:${ip}`, allowance: this.options.anonymous };
    const base = principal.user.roles.includes('premium') ? this.options.premium : this.options.authenticated;
    if (principal.kind === 'jwt') return { subject: `user:${principal.user.id}`, allowance: base };
    const custom = principal.key.rateLimitPerMinute;
    return { subject: `key:${principal.key.id}`, allowance: custom === null ? base : { ...base, perMinute: custom } };
  }
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
