export { createExplorer, type Explorer } from './explorer.js';
export { resolveConfig, explorerConfigSchema, type ExplorerConfig, type ResolvedConfig } from './config.js';
export * from './errors/index.js';
export * from './auth/index.js';
export * from './counters/index.js';
export * from './http/index.js';
export * from './events/index.js';
export * from './channels/index.js';
export * from './sockets/index.js';
export * from './graphql/index.js';
export { BUILT_IN_CHANNELS } from './features/built-in-channels.js';
export { BUILT_IN_GRAPHQL, typeDefs as graphqlTypeDefs } from './features/built-in-graphql.js';
export { graphqlRoutes } from './api/graphql.js';
export { createOpenApiDocument, documentationRoutes, type OpenApiDocument } from './api/openapi/index.js';
export { ExplorerMetrics, metricsRoutes, type ExplorerMetricsSources } from './metrics/index.js';
export { requestLog } from './logging/index.js';
export { localCoordinator, type Coordinator } from './coordination/coordinator.js';
export { announceBlock } from './coordination/cluster.js';
export * from './services/index.js';
export type { Services } from './explorer-services.js';
export * from './features/accounts/index.js';
export * from './features/approvals/index.js';
export * from './features/labels/index.js';
export * from './features/prices/index.js';
export * from './features/rate-limits/index.js';
export {
  VERIFICATION_MESSAGES,
  VerificationService,
  type CodeFormat,
  type VerificationInput,
  type VerificationOutcome,
  type VerificationServiceOptions,
} from './features/verification/index.js';
export * from './abi/index.js';
export { createChainClient, type ChainClient, type ChainClientOptions } from './chain/chain-client.js';
export { BatchRefusedError, type RpcCall, type RpcOutcome } from './chain/rpc-batch.js';
export { NodeRpcError } from './chain/node-rpc-error.js';
export { decodeRevertReason } from './chain/revert-reason.js';
export { Indexer, type IndexerOptions, type IndexerStatus } from './indexer/indexer.js';
export { PendingTracker, type PendingLookup } from './indexer/pending-tracker.js';
export * from './consensus/index.js';
export { tokenTransfersOf } from './tokens/token-transfers.js';
export { approvalsOf } from './tokens/token-approvals.js';
export { ZERO_ADDRESS } from './tokens/zero-address.js';
export { pairEventsOf, type PairEvents } from './prices/pair-events.js';
export type { PoolLiquidity, PriceRange, PriceSource } from './prices/price-source.js';
export { contractCreationsOf } from './indexer/contract-creations.js';
export { internalTransactionsOf } from './indexer/internal-transactions.js';
export { approvalProblem, blockTracesProblem, contractCreationProblem, internalTransactionProblem, pairEventProblem, type BlockTransactionsAt } from './storage/bundle-checks.js';
export type * from './storage/account-records.js';
export type * from './storage/webhook-records.js';
export { webhookBundleKeys, webhookOutbox, webhookTraceKeys, webhookTraceOutbox, type WebhookMatches, type WebhookOutboxEntry } from './storage/webhook-outbox.js';
export type * from './storage/approval-records.js';
export { BUCKET_SECONDS, bucketOf, type ChartResolution, type ChartRollupsQuery, type StoredChartRollup, type StoredTokenRollup, type TokenRollupsPage, type TokenRollupsQuery } from './storage/chart-records.js';
export type * from './storage/contract-records.js';
export type * from './storage/dex-records.js';
export type * from './storage/export-records.js';
export type * from './storage/internal-transaction-records.js';
export type * from './storage/label-records.js';
export { givenTopicPositions, logMatchesTopics, requiredTopicPositions, TOPIC_PAIRS, type LogsQuery, type TopicOperator, type TopicPair } from './storage/log-topic-records.js';
export type * from './storage/metadata-records.js';
export type * from './storage/records.js';
export type * from './storage/token-records.js';
export type * from './storage/trace-records.js';
export type * from './storage/verification-records.js';
export type {
  Storage,
  AccountStorage,
  BlockReader,
  ChainCursors,
  ChainWriter,
  ChartReader,
  CounterStorage,
  ExportReader,
  JoinedPageReader,
  LabelStorage,
  LogReader,
  MetadataStorage,
  PairReader,
  StorageLifecycle,
  TokenMetadataStorage,
  TokenReader,
  TransactionReader,
  VerificationStorage,
  WebhookStorage,
} from './storage/index.js';
export { isPublicAddress, webhookSignature, WebhookService, type WebhookConfig, type WebhookDeliveryRecord, type WebhookRecord, type WebhookRequest, type WebhookTestRecord, type WebhookUpdate, type WebhookWithSecretRecord } from './features/webhooks/index.js';
// What the hostile-input suites of `@chainlens/testing` enumerate and match to probe every route and method.
export { Router } from './http/router.js';
export { streamKey } from './channels/channel-definition.js';
export { etherscanModules, isEtherscanPath } from './api/etherscan/index.js';
export { JSON_RPC_CODES } from './api/json-rpc/json-rpc-errors.js';
export { jsonRpcMethods } from './api/json-rpc/methods.js';
export { isNodeReadMethod } from './api/json-rpc/node-reads.js';
