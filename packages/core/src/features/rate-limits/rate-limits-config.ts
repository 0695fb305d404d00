import { z } from 'zod';

const int = (min: number) => z.number().int().min(min);

/** Requests per minute and per day of one tier. */
const allowance = (perMinute: number, perDay: number) =>
  z.object({ perMinute: int(1).default(perMinute), perDay: int(1).default(perDay) }).prefault({});

/** The `rateLimits` slice of the explorer's config: the API tiers' allowances, how they are counted, and the login and registration throttles. */
export const rateLimitsConfigSchema = z
  .object({
    /** `false` turns tiers and throttles off (benchmarks; deployments behind a limiting gateway). */
    enabled: z.boolean().default(true),
    anonymous: allowance(100, 10_000),
    authenticated: allowance(1_000, 100_000),
    premium: allowance(10_000, 1_000_000),
    /**
     * Proxies in front of ChainLens that append to `X-Forwarded-For`; 0 trusts none and limits
     * by the socket's address.
     */
    trustedProxyHops: int(0).max(10).default(0),
    /**
     * Milliseconds between two flushes of the tiers' counts: each instance counts in memory and,
     * on this beat, adds its counts to storage in one call and reads back the shared totals. 0
     * writes every request through (exact across instances, one storage round trip a request).
     */
    flushIntervalMs: int(0).max(10_000).default(200),
    /** Registrations per client address per hour. */
    registrationsPerHour: int(1).default(30),
    /** Failed logins of one account within one `loginWindowMinutes` window that lock it. */
    loginFailures: int(1).default(10),
    /** Length of the fixed windows failed logins are counted in, and of the lock that follows. */
    loginWindowMinutes: int(1).max(1_440).default(15),
  });

/** The `rateLimits` options, resolved. */
export type RateLimitsConfig = z.output<typeof rateLimitsConfigSchema>;
