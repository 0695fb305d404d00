import { RateLimitedError } from '../errors/index.js';
import type { Storage } from '../storage/index.js';
import { HOUR_MS, MINUTE_MS, windowAt } from './windows.js';

/** Options of {@link Throttles}. */
export interface ThrottleOptions {
  /** Registrations per client IP per hour. */
  registrationsPerHour: number;
  /** Failed logins per account within `loginWindowMinutes` before further attempts are refused. */
  loginFailures: number;
  loginWindowMinutes: number;
  now: () => number;
}

/**
 * Abuse throttles on top of the tiers: registrations per IP, and failed logins per account
 * (from any IP: spreading a guessing attack over addresses does not help). Over either, 429
 * `Max rate limit reached` until the window ends (the cooldown).
 */
export class Throttles {
  constructor(
    private readonly storage: Storage,
    private readonly options: ThrottleOptions,
  ) {}

  /** Counts a registration attempt from `ip`; throws once the hour's allowance is spent. */
  async registration(ip: string): Promise<void> {
    const now = this.options.now();
    const window = windowAt(now, HOUR_MS);
    const [count = 0] = await this.storage.hitCounters([{ key: `throttle:register:${ip}:${window.index}`, amount: 1, expiresAt: window.end }], now);
    if (count > this.options.registrationsPerHour) throw new RateLimitedError(secondsUntil(window.end, now));
  }

  /** Throws when `email` has used up its failed attempts in this window. */
  async beforeLogin(email: string): Promise<void> {
    const now = this.options.now();
    const [count = 0] = await this.storage.hitCounters([this.loginCounter(email, now, 0)], now);
    if (count >= this.options.loginFailures) throw new RateLimitedError(secondsUntil(this.loginCounter(email, now, 0).expiresAt, now));
  }

  /** Records a failed login of `email`. */
  async loginFailed(email: string): Promise<void> {
    const now = this.options.now();
    await this.storage.hitCounters([this.loginCounter(email, now, 1)], now);
  }

  private loginCounter(email: string, now: number, amount: number) {
    const window = windowAt(now, this.options.loginWindowMinutes * MINUTE_MS);
    return { key: `throttle:login:${email}:${window.index}`, amount, expiresAt: window.end };
  }
}

const secondsUntil = (end: number, now: number) => Math.max(1, Math.ceil((end - now) / 1000));
