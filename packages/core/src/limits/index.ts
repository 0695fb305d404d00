export { clientIp } from './client-ip.js';
export { RateLimiter, rateLimitHeaders, rateLimitOutcome, type Allowance, type RateLimiterOptions, type RateLimitState } from './rate-limiter.js';
export { Throttles, type LoginAttempt, type ThrottleOptions } from './throttles.js';
export { DAY_MS, HOUR_MS, MINUTE_MS, windowAt, type Window } from './windows.js';
