/**
 * `@chainlens/core/testing`: the Storage and REST API conformance suites and the deterministic chain
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
export { chainInternalTransactions, referenceInternalTransactions, withInternalTransactions } from './internal-transaction-fixtures.js';
export {
  chainAccounts,
  chainLogs,
  chainTokenTransfers,
  chainTransactions,
  involvedAddresses,
  referenceAddressActivity,
  referenceAddressTransactions,
  referenceCursor,
  referenceToken,
  referenceTokenHolders,
  referenceTokenTransferCount,
  referenceTokenTransfers,
  referenceTotals,
  ZERO_ADDRESS,
} from './reference.js';
export { apiConformanceSuite, type ApiSuiteOptions, type ServedApi } from './api/index.js';
export { waitFor } from './api/context.js';
