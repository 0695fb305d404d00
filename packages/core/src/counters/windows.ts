/**
 * Fixed windows aligned to Unix time (UTC minutes, hours, days): every instance cuts time the
 * same way, so counters in shared storage line up. A window's counter starts at 0 when the
 * window starts; a client can therefore spend a full allowance at the end of one window and
 * another at the start of the next (at most twice the limit across a boundary), the documented
 * price of counters that cost one storage round trip.
 */
export interface Window {
  /** Index of the window since the epoch, part of counter keys. */
  index: number;
  /** Unix milliseconds at which it ends (exclusive). */
  end: number;
}

export function windowAt(now: number, lengthMs: number): Window {
  const index = Math.floor(now / lengthMs);
  return { index, end: (index + 1) * lengthMs };
}

/** Whole seconds from `now` until `end` (Unix ms), at least 1: a `Retry-After` value. */
export function secondsUntil(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
