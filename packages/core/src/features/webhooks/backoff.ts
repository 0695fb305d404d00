/**
 * The delay before attempt `attempts + 1`: `baseMs · 2^(attempts-1)` capped at `maxMs`, less a
 * random part of up to a half (jitter), so receivers coming back are not hit by every sender at
 * once. With the defaults (5 s, 4 h) the delays grow from seconds to hours over ~12 attempts.
 */
export function retryDelay(attempts: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempts - 1, 40));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
