import { expect } from 'vitest';

/** The fixed seed every fuzz run uses unless `FUZZ_SEED` names another (to replay or explore). */
const DEFAULT_SEED = 20_261_123;

/**
 * Time one fuzz test may take: thousands of requests run in well under a minute on a quiet
 * machine, but other work on a shared one can slow them past vitest's default.
 */
export const FUZZ_TEST_TIMEOUT_MS = 300_000;

/** The seed of this run: `FUZZ_SEED` when set, else the fixed default, so every run is the same. */
export function fuzzSeed(): number {
  const fromEnv = process.env.FUZZ_SEED;
  return fromEnv === undefined || fromEnv === '' ? DEFAULT_SEED : Number(fromEnv);
}

/** Fails with the first failures and the seed that replays them (`FUZZ_SEED=<seed>`). */
export function reportFailures(failures: readonly string[], seed: number): void {
  const shown = failures.slice(0, 25).join('\n');
  expect(failures, `${failures.length} fuzz failures (replay with FUZZ_SEED=${seed}):\n${shown}`).toEqual([]);
}
