/**
 * The API's records the page reads: core's own types (type-only imports, so nothing of core is
 * bundled), and the few shapes that are not REST records (channel payloads, Etherscan answers, the
 * search contract's matches).
 */
export type {
  AccountTokenTransferRecord as AccountTokenTransfer,
  BalanceRecord as Balance,
  BlockRecord as Block,
  ChartPointRecord as ChartPoint,
  ChartRecord as Chart,
  ChartSeriesRecord as ChartSeries,
  ConsensusInfoRecord as ConsensusInfo,
  ContractRecord as Contract,
  DecodedLogRecord as DecodedLog,
  FinalityStatusRecord as Finality,
  NetworkStatsRecord as NetworkStats,
  TokenHoldersRecord as TokenHolders,
  TokenHoldingRecord as TokenHolding,
  TokenRecord as Token,
  TokenTransferRecord as TokenTransfer,
  TransactionInfoRecord as TransactionInfo,
  TransactionRecord as Transaction,
  ValidatorSetRecord as ValidatorSet,
  BalanceChangesRecord as BalanceChanges,
  DecodedCallFrameRecord as DecodedCallFrame,
  DecodedInputRecord as DecodedInput,
  DecodedParameter,
  DelegationRecord as Delegation,
  TransactionEnvelopeRecord as TransactionEnvelope,
} from '@chainlens/core';

/** A `blocks` channel message's data. */
export interface BlockEvent {
  blockNumber: string;
  blockHash: string;
  timestamp: string;
  transactionCount: number;
  gasUsed: string;
  miner: string;
}

/** An internal transaction, as the Etherscan-compatible `txlistinternal` answers it. */
export interface InternalTransaction {
  from: string;
  to: string;
  value: string;
  type: string;
  contractAddress: string;
  isError: string;
  errCode: string;
}

/** One entry of the Etherscan-compatible `getsourcecode`. */
export interface SourceCode {
  SourceCode: string;
  ContractName: string;
  CompilerVersion: string;
}

/** One entry of a verified ABI, as the compiler wrote it. */
export interface AbiEntry {
  type: string;
  name?: string;
  inputs?: { name: string; type: string }[];
  outputs?: { name: string; type: string }[];
  stateMutability?: string;
}

/** One match of `GET /api/v1/search` (the search contract). */
export type SearchMatch =
  | { type: 'block'; blockNumber: string; hash: string }
  | { type: 'transaction'; hash: string; blockNumber: string }
  | { type: 'contract'; address: string; name: string | null; label?: string | null }
  | { type: 'address'; address: string; label?: string | null }
  | { type: 'token'; address: string; name: string | null; symbol: string | null; standard: string };
