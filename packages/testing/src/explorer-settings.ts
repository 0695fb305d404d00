import type { DemoDeployment } from '@chainlens/devchain';

/** Indexer timings for suites: a new block is seen within tens of milliseconds, a lost node retried quickly. */
export const FAST_INDEXER = { pollIntervalMs: 20, retryBaseMs: 20, maxBackoffMs: 500 };

/** Prices from the demo's DEX pool against its quote token at $1, as `npm start`'s demo chain has them. */
export function demoPrices(demo: DemoDeployment) {
  return { quoteToken: demo.contracts.quoteToken, quoteTokenUsd: '1', dexes: [{ name: 'DemoSwap', factory: demo.contracts.dexFactory }] };
}
