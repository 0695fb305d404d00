import type { PendingTracker } from '../indexer/pending-tracker.js';
import type { AccountService } from './account-service.js';
import type { ChartService } from './chart-service.js';
import type { ExportService } from './export-service.js';
import type { BlockService } from './block-service.js';
import type { ConsensusService } from './consensus-service.js';
import type { ContractService } from './contract-service.js';
import type { GasOracleService } from './gas-oracle-service.js';
import type { HealthService } from './health-service.js';
import type { LogService } from './log-service.js';
import type { NetworkStatsService } from './network-stats-service.js';
import type { NftInventoryService } from './nft-inventory-service.js';
import type { SearchService } from './search-service.js';
import type { StatusService } from './status-service.js';
import type { SubmissionService } from './submission-service.js';
import type { TokenService } from './token-service.js';
import type { TraceService } from './trace-service.js';
import type { TransactionService } from './transaction-service.js';
import type { BalanceChangeService } from './balance-change-service.js';
import type { DelegationService } from './delegation-service.js';
import type { TransactionDecodingService } from './transaction-decoding-service.js';
import type { TransactionEnvelopeService } from './transaction-envelope-service.js';

export * from './format.js';
export * from './account-service.js';
export * from './chart-service.js';
export { csvField, csvRow } from './csv.js';
export * from './export-service.js';
export * from './address-labels.js';
export * from './block-lineage.js';
export * from './list-rows.js';
export * from './block-service.js';
export * from './chain-record-cache.js';
export * from './consensus-service.js';
export * from './contract-service.js';
export * from './gas-oracle-service.js';
export * from './health-service.js';
export * from './internal-transactions.js';
export * from './log-service.js';
export * from './network-stats-service.js';
export * from './nft-inventory-service.js';
export * from './token-prices.js';
export * from './search-service.js';
export * from './status-service.js';
export * from './submission-service.js';
export * from './token-service.js';
export * from './transaction-service.js';
export type * from './call-trace.js';
export * from './trace-service.js';
export * from './balance-change-service.js';
export type { DecodedCallFrameRecord } from './call-decoding.js';
export * from './delegation-service.js';
export * from './transaction-decoding-service.js';
export * from './transaction-envelope-service.js';

/**
 * The services of the domain layer, which the feature folders and the interfaces build on.
 * `Services` (`explorer-services.ts`), composed above the feature folders, adds the features' own.
 */
export interface DomainServices {
  accounts: AccountService;
  /** What a transaction moved per address: ether (from its call tree) and tokens. */
  balanceChanges: BalanceChangeService;
  blocks: BlockService;
  /** Statistics over time from rollups kept as blocks are indexed. */
  charts: ChartService;
  /** Validators, consensus info, finality and state roots from the configured consensus source. */
  consensus: ConsensusService;
  contracts: ContractService;
  /** Decoded transaction inputs and call trees (verified ABIs, then common functions). */
  decoding: TransactionDecodingService;
  /** EIP-7702 delegations of accounts. */
  delegations: DelegationService;
  /** The fields a transaction's type adds: EIP-7702 authorizations, EIP-4844 blobs. */
  envelopes: TransactionEnvelopeService;
  /** CSV exports of an address's records, streamed. */
  exports: ExportService;
  /** Gas prices to offer now, from the node's fee history. */
  gasOracle: GasOracleService;
  health: HealthService;
  /** Contracts' logs by block range and topics. */
  logs: LogService;
  networkStats: NetworkStatsService;
  /** NFT inventories of owners and collections, from indexed transfers. */
  nfts: NftInventoryService;
  pending: PendingTracker;
  /** The search box: blocks, transactions, addresses and tokens by what a person types. */
  search: SearchService;
  status: StatusService;
  submission: SubmissionService;
  tokens: TokenService;
  /** Call trees of mined transactions from the node's tracer, cached once computed. */
  traces: TraceService;
  transactions: TransactionService;
}
export { percentOf } from './percent.js';
