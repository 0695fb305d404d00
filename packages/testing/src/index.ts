/**
 * `@chainlens/testing`: the Storage and REST API conformance suites and the deterministic chain
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
  chainApprovals,
  referenceAddressInternalTransactionsAfter,
  referenceAddressLogsAfter,
  referenceAddressTokenTransfersAfter,
  referenceAddressTransactionsAfter,
  referenceApprovals,
  referenceChartRollups,
  referenceTokenRollups,
} from './insight-reference.js';
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
  referenceAddressTokenBalances,
  referenceTokenTransferCount,
  referenceTokenTransfers,
  referenceTotals,
  ZERO_ADDRESS,
} from './reference.js';
export { apiConformanceSuite, type ApiSuiteOptions, type ServedApi } from './api/index.js';
export { graphqlSubscriptionSuite } from './api/graphql-subscriptions.js';
export { indexedThrough, signUp, waitFor, type SignedUpUser } from './api/context.js';
export { storeVerifiedEmitter } from './api/verified-emitter.js';
export { startNodeRelay, type NodeFault, type NodeRelay } from './api/node-relay.js';
export { startExample, type RunningExample } from './start-example.js';
export { channelsSuite, type ChannelSuiteOptions, type ClientSocket, type ClientSocketClass } from './sockets/index.js';
export { fuzzSuite, type FuzzSuiteOptions } from './fuzz/index.js';
export { reorgPlan, reorgSuite, runPlan, type ReorgRound, type ReorgSuiteOptions } from './fuzz/reorg-storm.js';
export { startReorgRun, type ReorgRun } from './fuzz/reorg-run.js';
export { expectCanonical, expectReorgStream } from './fuzz/reorg-canonical.js';
export { socketFuzzSuite, type SocketFuzzSuiteOptions } from './fuzz/socket-suite.js';
export { graphqlFuzzSuite, type GraphqlFuzzSuiteOptions } from './fuzz/graphql-suite.js';
export { pairCreatedLog, swapLog, syncLog } from './dex-fixtures.js';
export { FAST_WEBHOOKS, webhookSuite, type WebhookSuiteOptions } from './webhooks/suite.js';
export { signatureHolds, startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from './webhooks/receiver.js';
export { testDatabaseUrl, testSchemas, withClient } from './postgres-database.js';
