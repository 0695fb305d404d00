/**
 * `@chainlens/core/testing`: the Storage conformance suite and the deterministic chain
 * fixtures it runs on. Needs `vitest` (a peer dependency of this subpath).
 */
export {
  expectStoredChain,
  storageConformanceSuite,
  type StorageFactory,
  writeChain,
} from './conformance/index.js';
export {
  EMPTY_BLOOM,
  ZERO_HASH,
  fixtureAddress,
  fixtureHash,
  makeAddressPool,
  makeChain,
  type MakeChainOptions,
} from './fixtures.js';
export {
  chainAccounts,
  chainLogs,
  chainTransactions,
  involvedAddresses,
  referenceAddressActivity,
  referenceAddressTransactions,
  referenceCursor,
  referenceTotals,
} from './reference.js';
