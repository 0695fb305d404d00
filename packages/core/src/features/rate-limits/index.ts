export { RateLimiter, rateLimitHeaders, rateLimitOutcome, type Allowance, type RateLimiterOptions, type RateLimitState } from './rate-limiter.js';
