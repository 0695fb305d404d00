import { RateLimitedError } from '../../errors/index.js';
import type { CounterHit, CounterStorage } from '../../storage/index.js';
import { HOUR_MS, MINUTE_MS, secondsUntil, windowAt, type Window } from '../../counters/windows.js';

/** Options of {@link Throttles}. */
export interface ThrottleOptions {
  /** Registrations per client IP per hour. */
  registrationsPerHour: number;
  /** Failed logins per account within one `loginWindowMinutes` window before the account is locked. */
  loginFailures: number;
  /** Length of the fixed windows failed logins are counted in, and of the lock that follows. */
  loginWindowMinutes: number;
  now: () => number;
}

/** A login attempt admitted by {@link Throttles.beginLogin}; it holds one place of its account's allowance. */
export interface LoginAttempt {
  /** The password was wrong: the place stays taken, and the failure that uses up the allowance locks the account. */
  failed(): Promise<void>;
  /** The password was right, or never judged (an outage): the place is given back. */
  release(): Promise<void>;
}

/**
 * Abuse throttles on top of the tiers: registrations per IP, and failed logins per account
 * (from any IP: spreading a guessing attack over addresses does not help). Over either, 429
 * `Max rate limit reached`.
 *
 * Logins are counted before the password is checked, so parallel guesses cannot all pass a
 * check that a later count would have failed. Each attempt takes a place (`begun`) in one
 * atomic increment, and is admitted while the places not given back (`begun - released`:
 * failures plus attempts in flight) stay within the allowance. Counters only grow (storage
 * takes no negative amounts), hence a second counter for what is given back. The failure that
 * uses up the allowance locks the account for a whole window from that moment: a lock near a
 * window's end must not lift a second later when the counters start again.
 */
export class Throttles {
  constructor(
    private readonly storage: CounterStorage,
    private readonly options: ThrottleOptions,
  ) {}

  /** Counts a registration attempt from `ip`; throws once the hour's allowance is spent. */
  async registration(ip: string): Promise<void> {
    const now = this.options.now();
    const window = windowAt(now, HOUR_MS);
    const [count = 0] = await this.storage.hitCounters([{ key: `throttle:register:${ip}:${window.index}`, amount: 1, expiresAt: window.end }], now);
    if (count > this.options.registrationsPerHour) throw new RateLimitedError(secondsUntil(window.end, now));
  }

  /**
   * Admits one login attempt of `email` (canonical form), or throws {@link RateLimitedError}
   * while the account is locked or its allowance is taken. The caller ends the attempt with
   * exactly one of {@link LoginAttempt.failed} and {@link LoginAttempt.release}.
   */
  async beginLogin(email: string): Promise<LoginAttempt> {
    const now = this.options.now();
    const window = windowAt(now, this.loginWindowMs());
    const keys = loginKeys(email, window);
    // The lock's value is the Unix ms it ends at, so a read tells how long it still lasts.
    const [begun = 0, released = 0, lockedUntil = 0] = await this.storage.hitCounters(
      [counter(keys.begun, 1, window.end), counter(keys.released, 0, window.end), counter(keys.lock, 0, 0)],
      now,
    );
    const attempt = this.loginAttempt(keys, window);
    const locked = lockedUntil > now;
    if (locked || begun - released > this.options.loginFailures) {
      // A refused attempt was never a guess: it must not keep a place.
      await attempt.release();
      throw new RateLimitedError(secondsUntil(locked ? lockedUntil : window.end, now));
    }
    return attempt;
  }

  private loginAttempt(keys: LoginKeys, window: Window): LoginAttempt {
    return {
      failed: async () => {
        const now = this.options.now();
        const [failures = 0] = await this.storage.hitCounters([counter(keys.failed, 1, window.end)], now);
        // Exactly one failure per window reaches the allowance, so the lock is written once.
        if (failures === this.options.loginFailures) {
          const until = now + this.loginWindowMs();
          await this.storage.hitCounters([counter(keys.lock, until, until)], now);
        }
      },
      release: async () => {
        await this.storage.hitCounters([counter(keys.released, 1, window.end)], this.options.now());
      },
    };
  }

  private loginWindowMs(): number {
    return this.options.loginWindowMinutes * MINUTE_MS;
  }
}

/** The counters of one account's logins in one window, and its lock (which outlives windows). */
interface LoginKeys {
  begun: string;
  released: string;
  failed: string;
  lock: string;
}

function loginKeys(email: string, window: Window): LoginKeys {
  return {
    begun: `throttle:login:begun:${email}:${window.index}`,
    released: `throttle:login:released:${email}:${window.index}`,
    failed: `throttle:login:failed:${email}:${window.index}`,
    lock: `throttle:login:lock:${email}`,
  };
}

const counter = (key: string, amount: number, expiresAt: number): CounterHit => ({ key, amount, expiresAt });
