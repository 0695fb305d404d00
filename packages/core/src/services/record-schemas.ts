import { z } from 'zod';
import type { ApiKeyRecord, CreatedApiKeyRecord } from '../auth/api-key-service.js';
import type { AccessToken } from '../auth/jwt.js';
import type { UserRecord } from '../auth/user-record.js';
import { accessTokenSchema, apiKeyRecordSchema, createdApiKeyRecordSchema, userRecordSchema } from './account-record-schemas.js';
import type { AccountSummaryRecord, BalanceRecord } from './account-service.js';
import type { TransactionTraceRecord } from './call-trace.js';
import type { ConsensusInfoRecord, FinalityStatusRecord, ValidatorRecord, ValidatorSetRecord } from '../consensus/consensus-records.js';
import type { StateRootRecord } from './consensus-service.js';
import type { ContractEventRecord, ContractRecord } from './contract-service.js';
import type { BlockRecord, LogRecord, PendingTransactionRecord, ReceiptRecord, TransactionRecord } from './format.js';
import type { MetadataProfileRecord } from './metadata-service.js';
import type { NetworkStatsRecord } from './network-stats-service.js';
import type { TransactionStatusRecord } from './status-service.js';
import type { GasEstimateRecord } from './submission-service.js';
import type { TokenAnalyticsRecord, TokenHoldersRecord, TokenListItem, TokenRecord, TokenTransferRecord, AccountTokenTransferRecord, TokenHoldingRecord } from './token-service.js';
import type { DecodedLogRecord, TransactionInfoRecord } from './transaction-service.js';
import type { HealthRecord } from './health-service.js';
import type { SearchMatch } from './search-service.js';
import type { ApprovalRecord } from './approval-service.js';
import { nftRecordSchema } from './nft-record-schemas.js';
import type { NftRecord } from './nft-inventory-service.js';
import type { ChartRecord, ChartSeriesRecord } from './chart-service.js';
import type { AddressLabelRecord, WatchlistEntryRecord } from './label-service.js';
import { decimal, flag, hex, nullableLabel, type Same } from './record-fields.js';
import { decodedErrorSchema } from './transaction-insight-schemas.js';

/**
 * zod descriptions of the records services shape, for the API description
 * (`/api/v1/openapi.json`). The type checks at the end keep each one equal to its interface:
 * a field added to a record and not here fails the typecheck.
 */


/** Transaction (spec: Transaction), Etherscan style. */
export const transactionRecordSchema = z.object({
  hash: hex,
  blockNumber: decimal,
  blockHash: hex,
  timestamp: decimal.describe('Unix seconds'),
  from: hex,
  fromLabel: nullableLabel('the sender'),
  to: z.string().describe("the recipient, '' for a contract creation"),
  toLabel: nullableLabel('the recipient (the created contract, for a creation)'),
  value: decimal.describe('Wei'),
  gas: decimal,
  gasPrice: decimal,
  gasUsed: decimal,
  cumulativeGasUsed: decimal,
  nonce: decimal,
  input: hex,
  transactionIndex: decimal,
  confirmations: decimal,
  isError: flag,
  txreceipt_status: flag,
  contractAddress: z.string().describe("the created contract, '' when none"),
});

/** Log (spec: Log). */
export const logRecordSchema = z.object({
  address: hex,
  addressLabel: nullableLabel('the emitting contract'),
  topics: z.array(hex),
  data: hex,
  blockNumber: decimal,
  transactionHash: hex,
  transactionIndex: decimal,
  blockHash: hex,
  logIndex: decimal,
  removed: z.boolean(),
});

/** Transaction receipt. */
export const receiptRecordSchema = z.object({
  transactionHash: hex,
  transactionIndex: decimal,
  blockHash: hex,
  blockNumber: decimal,
  from: hex,
  fromLabel: nullableLabel('the sender'),
  to: hex.nullable(),
  toLabel: nullableLabel('the recipient (the created contract, for a creation)'),
  cumulativeGasUsed: decimal,
  gasUsed: decimal,
  effectiveGasPrice: decimal,
  contractAddress: hex.nullable(),
  logs: z.array(logRecordSchema),
  logsBloom: hex,
  status: flag,
});

/** Block (decisions.md: getblock). */
export const blockRecordSchema = z.object({
  blockNumber: decimal,
  hash: hex,
  parentHash: hex,
  timestamp: decimal.describe('Unix seconds'),
  miner: hex,
  minerLabel: nullableLabel('the miner'),
  gasUsed: decimal,
  gasLimit: decimal,
  baseFeePerGas: decimal.nullable(),
  difficulty: decimal,
  size: decimal,
  stateRoot: hex,
  transactionsRoot: hex,
  receiptsRoot: hex,
  extraData: hex,
  transactionCount: z.number().int(),
  transactions: z.array(hex).describe('transaction hashes, in block order'),
});

/** Health (decisions.md: `GET /health`). */
export const healthRecordSchema = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  chainId: z.number().int().nullable(),
  latestBlock: z.number().int().nullable(),
  indexedBlock: z.number().int().nullable(),
  lag: z.number().int().nullable(),
  tracedBlock: z
    .number()
    .int()
    .nullable()
    .describe(
      'the block through which every indexed block’s call traces (internal transactions, contracts created inside transactions) are stored; null before the first block is traced and where the node does not trace',
    ),
  traceLag: z.number().int().nullable().describe('indexedBlock - tracedBlock, when both are known'),
  storage: z.enum(['ok', 'down']),
  uptime: z.number().describe('seconds since the explorer was created'),
});

/** Balance (decisions.md: `GET /account/balance`). */
export const balanceRecordSchema = z.object({
  address: hex,
  label: nullableLabel('the address'),
  balance: decimal.describe('Wei'),
  blockNumber: decimal.describe('the block the balance was read at'),
});

/** An address at a glance (decisions.md: `GET /account/summary`). */
export const accountSummaryRecordSchema = z.object({
  address: hex,
  label: nullableLabel('the address'),
  balance: decimal.describe('Wei, at the newest indexed block'),
  transactionCount: z.number().int(),
  tokenTransferCount: z.number().int(),
  firstSeen: decimal.nullable().describe('Unix seconds'),
  lastSeen: decimal.nullable().describe('Unix seconds'),
  isContract: z.boolean(),
});

/** `gettxinfo`: the Transaction plus its outcome and logs. */
export const transactionInfoRecordSchema = transactionRecordSchema.extend({
  success: z.boolean(),
  revertReason: z.string().nullable().describe('why a failed transaction reverted (a custom error decoded where a verified ABI declares it); null for a success'),
  revertError: decodedErrorSchema.nullable().describe('the custom error a failed transaction reverted with, decoded by a verified ABI of a contract it called; null otherwise'),
  logs: z.array(logRecordSchema),
});

/** Pending transaction (spec: Pending transaction). */
export const pendingTransactionRecordSchema = z.object({
  hash: hex,
  from: hex,
  to: z.string().describe("the recipient, '' for a contract creation"),
  value: decimal.describe('Wei'),
  gasPrice: decimal,
  gas: decimal,
  nonce: decimal,
  submittedAt: decimal.describe('Unix seconds when ChainLens first saw it'),
});

/** Where a transaction stands (spec: Transaction status). */
export const transactionStatusRecordSchema = z.object({
  hash: hex,
  status: z.enum(['pending', 'confirmed', 'finalized', 'failed', 'dropped']),
  blockNumber: decimal.nullable(),
  confirmations: z.number().int(),
  timestamp: decimal.nullable(),
});

/** A gas estimate (spec: Gas estimate). */
export const gasEstimateRecordSchema = z.object({
  gasEstimate: decimal,
  gasPrice: decimal.describe('Wei'),
  estimatedCost: decimal.describe('Wei'),
  estimatedCostNative: z.string().describe('in the native coin, a decimal string'),
});

/** One call frame of a transaction's trace, with the calls it made. */
export const transactionTraceRecordSchema = z.object({
  type: z.string(),
  from: hex,
  fromLabel: nullableLabel('the caller'),
  to: hex.nullable(),
  toLabel: nullableLabel('the callee (the created contract, the beneficiary of a self-destruct)'),
  value: decimal,
  gas: decimal,
  gasUsed: decimal,
  input: hex,
  output: hex,
  error: z.string().nullable(),
  get calls(): z.ZodArray<typeof transactionTraceRecordSchema> {
    return z.array(transactionTraceRecordSchema);
  },
});

/** Validator (spec: Validator). */
export const validatorRecordSchema = z.object({
  address: hex,
  label: nullableLabel('the validator'),
  votingPower: z.string().nullable(),
  proposerPriority: z.string().nullable(),
  isActive: z.boolean(),
  uptime: z.number().nullable(),
  totalBlocks: z.number().int(),
  missedBlocks: z.number().int().nullable(),
  commission: z.string().nullable(),
  stakingAmount: z.string().nullable(),
  delegators: z.number().int().nullable(),
  website: z.string().nullable(),
  identity: z.string().nullable(),
  details: z.string().nullable(),
});

/** Validator set (spec: Validator set). */
export const validatorSetRecordSchema = z.object({
  totalValidators: z.number().int(),
  activeValidators: z.number().int(),
  epoch: z.number().int().nullable(),
  validators: z.array(validatorRecordSchema),
});

/** Consensus info (spec: Consensus info). */
export const consensusInfoRecordSchema = z.object({
  consensusAlgorithm: z.string().nullable(),
  blockTime: z.number().nullable(),
  epoch: z.number().int().nullable(),
  epochBlocks: z.number().int().nullable(),
  currentBlock: z.number().int(),
  currentValidator: hex.nullable(),
  nextValidator: hex.nullable(),
  totalStaked: z.string().nullable(),
  minStake: z.string().nullable(),
  slashingEnabled: z.boolean().nullable(),
  governanceEnabled: z.boolean().nullable(),
});

/** Finality status (spec: Finality status). */
export const finalityStatusRecordSchema = z.object({
  blockNumber: decimal,
  isFinalized: z.boolean(),
  confirmations: z.number().int(),
  requiredConfirmations: z.number().int().nullable(),
  finalizedAt: decimal.nullable(),
  finalityProof: z.object({ signatures: z.array(z.string()), validatorCount: z.number().int(), votingPower: z.string().nullable() }).nullable(),
});

/** State root (spec: State root). */
export const stateRootRecordSchema = z.object({
  blockNumber: decimal,
  stateRoot: hex,
  timestamp: decimal,
  blockHash: hex,
  parentHash: hex,
});

/** Network statistics (spec: Network stats). */
export const networkStatsRecordSchema = z.object({
  blockHeight: z.number().int(),
  blockTime: z.number(),
  tps: z.number(),
  peakTps: z.number(),
  gasPrice: decimal.nullable(),
  networkHashrate: z.string(),
  difficulty: z.string(),
  circulatingSupply: z.string().nullable(),
  totalSupply: z.string().nullable(),
  totalAccounts: z.number().int(),
  totalTransactions: z.number().int(),
  totalContracts: z.number().int(),
  activeNodes: z.number().int().nullable(),
  networkLoad: z.number(),
});

const nullableText = z.string().nullable();
const tokenStandard = z.enum(['ERC-20', 'ERC-721', 'ERC-1155']);

/** Token (spec: Token). */
export const tokenRecordSchema = z.object({
  address: hex,
  standard: tokenStandard,
  name: nullableText,
  symbol: nullableText,
  decimals: decimal.nullable(),
  totalSupply: decimal.nullable(),
  interfaces: z.array(z.string()).describe('ERC-165 interface ids the contract declares'),
  holders: z.number().int(),
  transfers: z.number().int(),
  priceUSD: nullableText,
  marketCap: nullableText,
  volume24h: nullableText,
  verified: z.boolean(),
  website: nullableText,
  social: z.object({ twitter: nullableText, telegram: nullableText }),
  metadata: z.object({ logo: nullableText, description: nullableText, riskScore: z.number().nullable(), trustLevel: nullableText }),
});

/** One row of `GET /token/list`. */
export const tokenListItemSchema = z.object({
  address: hex,
  name: nullableText,
  symbol: nullableText,
  decimals: decimal.nullable(),
  priceUSD: nullableText,
  marketCap: nullableText,
  volume24h: nullableText,
  holders: z.number().int(),
  verified: z.boolean(),
  logo: nullableText,
});

/** A page of a token's holders. */
export const tokenHoldersRecordSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  holders: z.array(
    z.object({
      address: hex,
      label: nullableLabel('the holder'),
      balance: decimal.describe('base units'),
      percentage: z.string().nullable().describe('percent of totalSupply, 0-100'),
      firstSeen: decimal,
      lastActivity: decimal,
    }),
  ),
});

/** Token transfer (spec: Token transfer). */
export const tokenTransferRecordSchema = z.object({
  blockNumber: decimal,
  timestamp: decimal,
  hash: hex,
  logIndex: decimal,
  from: hex,
  fromLabel: nullableLabel('the sender'),
  to: hex,
  toLabel: nullableLabel('the recipient'),
  value: decimal.describe('base units'),
  tokenId: decimal.nullable(),
  tokenName: z.string().nullable().describe("the token's name as its Token record has it; null where unknown"),
  tokenSymbol: z.string().nullable().describe("the token's symbol as its Token record has it; null where unknown"),
  tokenDecimal: z.string().nullable().describe('decimals as the Token record has them; null where unknown (an NFT has none)'),
});

/** A token transfer listed among those of several tokens, with its token and the transaction that carried it. */
export const accountTokenTransferRecordSchema = tokenTransferRecordSchema.extend({
  token: hex.describe('the token contract'),
  standard: tokenStandard,
  transaction: transactionRecordSchema,
});

/** A token an address holds. */
export const tokenHoldingRecordSchema = z.object({
  token: hex.describe('the token contract'),
  name: z.string().nullable(),
  symbol: z.string().nullable(),
  decimals: z.string().nullable().describe('null where unknown (an NFT has none)'),
  standard: tokenStandard,
  balance: decimal.describe('base units; an ERC-1155 balance sums every id'),
});

/** Token analytics. */
export const tokenAnalyticsRecordSchema = z.object({
  price: z.object({ current: nullableText, change24h: nullableText, change7d: nullableText, high24h: nullableText, low24h: nullableText }),
  volume: z.object({ volume24h: nullableText, volumeChange24h: nullableText }),
  liquidity: z.object({ totalLiquidity: nullableText, liquidityPools: z.array(z.object({ dex: z.string(), pair: hex, liquidity: z.string() })) }),
  holders: z.object({ total: z.number().int(), change24h: z.number().nullable(), top10Percentage: z.number().nullable() }),
});

/** Contract (spec: Contract). */
export const contractRecordSchema = z.object({
  address: hex,
  name: nullableText,
  compiler: nullableText,
  optimization: z.boolean().nullable(),
  runs: z.number().int().nullable(),
  verified: z.boolean(),
  verifiedAt: nullableText,
  license: nullableText,
  creator: hex.nullable(),
  label: nullableLabel('the contract'),
  creatorLabel: nullableLabel('its creator'),
  creationTx: hex.nullable(),
  creationBlock: decimal.nullable(),
  balance: decimal.describe('Wei'),
  txCount: z.number().int(),
  isToken: z.boolean(),
  isProxy: z.boolean(),
  proxyType: z.enum(['EIP-1167', 'EIP-1967', 'EIP-1967 beacon', 'EIP-1822', 'EIP-897']).nullable(),
  implementation: hex.nullable(),
});

/** A contract's event log, decoded where its signature is known. */
export const contractEventRecordSchema = z.object({
  address: hex,
  addressLabel: nullableLabel('the contract'),
  topics: z.array(hex),
  data: hex,
  blockNumber: decimal,
  transactionHash: hex,
  logIndex: decimal,
  eventName: nullableText,
  decoded: z.record(z.string(), z.string()),
});

/** A log decoded with a known ABI (`GET /transaction/:hash/logs?decode=true`). */
export const decodedLogRecordSchema = z.object({
  eventName: nullableText,
  eventSignature: nullableText.describe('e.g. Transfer(address,address,uint256)'),
  parameters: z.record(z.string(), z.string()),
  contractAddress: hex,
  contractLabel: nullableLabel('the emitting contract'),
  contractName: nullableText,
  logIndex: decimal,
});

/** Metadata profile (spec: Metadata profile). */
export const metadataProfileRecordSchema = z.object({
  address: z.templateLiteral(['0x', z.string()]),
  type: z.string(),
  name: nullableText,
  symbol: nullableText,
  logo: nullableText,
  description: nullableText,
  website: nullableText,
  whitepaper: nullableText,
  social: z.object({ twitter: nullableText, telegram: nullableText, discord: nullableText, github: nullableText }),
  verified: z.boolean(),
  verifiedBy: nullableText,
  verifiedAt: nullableText,
  riskScore: z.number().nullable(),
  trustLevel: nullableText,
  auditReports: z.array(z.object({ auditor: z.string(), date: z.string().describe('YYYY-MM-DD'), url: z.string() })),
  tags: z.array(z.string()),
  chainId: z.number().int(),
  updatedAt: nullableText,
});

/** One match of `GET /search`, by `type`. */
export const searchMatchSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('block'), blockNumber: decimal, hash: hex }).describe('q is an indexed block number or block hash'),
  z.object({ type: z.literal('transaction'), hash: hex, blockNumber: decimal }).describe('q is an indexed transaction hash'),
  z
    .object({ type: z.literal('contract'), address: hex, name: nullableText.describe('from its verified source, else its token metadata'), label: nullableLabel('the contract') })
    .describe("q is an address with code at the indexed head or an indexed creation, or the start of such an address's public label"),
  z.object({ type: z.literal('address'), address: hex, label: nullableLabel('the address') }).describe("q is any other well-formed address, or the start of such an address's public label"),
  z
    .object({ type: z.literal('token'), address: hex, name: nullableText, symbol: nullableText, standard: tokenStandard })
    .describe("q is a token's address, or a case-insensitive prefix of its name or symbol"),
]);

/** A chart series as `GET /stats/charts` lists it. */
export const chartSeriesRecordSchema = z.object({
  name: z.string(),
  description: z.string(),
  unit: z.enum(['count', 'gas', 'wei', 'usd']),
  token: z.enum(['none', 'optional', 'required']).describe('whether the series is the chain’s (none), one token’s (required) or either (optional)'),
  resolutions: z.array(z.enum(['hour', 'day'])),
});

/** A chart: a series over a range. */
export const chartRecordSchema = z.object({
  name: z.string(),
  resolution: z.enum(['hour', 'day']),
  token: hex.nullable().describe('the token of a per-token series; null for the chain’s'),
  from: decimal.describe('Unix seconds: the start of the first bucket of the range'),
  to: decimal.describe('Unix seconds'),
  points: z
    .array(z.object({ timestamp: decimal.describe('Unix seconds the bucket starts at'), value: z.string().nullable().describe('a decimal; null where the bucket has none (an average without transactions, a price the source does not know)') }))
    .describe('one per bucket in which at least one block was indexed, oldest first'),
});

/** A public address label. */
export const addressLabelRecordSchema = z.object({
  address: hex,
  label: z.string(),
  category: z.string().nullable(),
  note: z.string().nullable(),
  updatedAt: z.string().describe('ISO 8601'),
});

/** A watch-list entry. */
export const watchlistEntryRecordSchema = z.object({
  address: hex,
  label: z.string().describe('the user’s own label'),
  note: z.string().nullable(),
  publicLabel: z.string().nullable().describe('the address’s public label; null without one'),
  createdAt: z.string().describe('ISO 8601'),
  updatedAt: z.string().describe('ISO 8601'),
});

/** A standing token approval. */
export const approvalRecordSchema = z.object({
  token: hex,
  tokenName: z.string().nullable(),
  tokenSymbol: z.string().nullable(),
  tokenDecimal: z.string().nullable(),
  kind: z.enum(['allowance', 'operator']).describe('allowance: ERC-20 Approval; operator: ApprovalForAll (every token id)'),
  spender: hex,
  spenderLabel: nullableLabel('the spender'),
  value: decimal.describe('the amount last approved, base units (operator: 1)'),
  blockNumber: decimal,
  timestamp: decimal,
  transactionHash: hex,
});

/** Fails the typecheck when a schema and its record interface part ways. */
export type RecordSchemasMatch = [
  Same<z.output<typeof transactionRecordSchema>, TransactionRecord>,
  Same<z.output<typeof logRecordSchema>, LogRecord>,
  Same<z.output<typeof receiptRecordSchema>, ReceiptRecord>,
  Same<z.output<typeof blockRecordSchema>, BlockRecord>,
  Same<z.output<typeof healthRecordSchema>, HealthRecord>,
  Same<z.output<typeof balanceRecordSchema>, BalanceRecord>,
  Same<z.output<typeof accountSummaryRecordSchema>, AccountSummaryRecord>,
  Same<z.output<typeof pendingTransactionRecordSchema>, PendingTransactionRecord>,
  Same<z.output<typeof transactionStatusRecordSchema>, TransactionStatusRecord>,
  Same<z.output<typeof gasEstimateRecordSchema>, GasEstimateRecord>,
  Same<z.output<typeof transactionTraceRecordSchema>, TransactionTraceRecord>,
  Same<z.output<typeof validatorRecordSchema>, ValidatorRecord>,
  Same<z.output<typeof validatorSetRecordSchema>, ValidatorSetRecord>,
  Same<z.output<typeof consensusInfoRecordSchema>, ConsensusInfoRecord>,
  Same<z.output<typeof finalityStatusRecordSchema>, FinalityStatusRecord>,
  Same<z.output<typeof stateRootRecordSchema>, StateRootRecord>,
  Same<z.output<typeof networkStatsRecordSchema>, NetworkStatsRecord>,
  Same<z.output<typeof transactionInfoRecordSchema>, TransactionInfoRecord>,
  Same<z.output<typeof tokenRecordSchema>, TokenRecord>,
  Same<z.output<typeof tokenListItemSchema>, TokenListItem>,
  Same<z.output<typeof tokenHoldersRecordSchema>, TokenHoldersRecord>,
  Same<z.output<typeof tokenTransferRecordSchema>, TokenTransferRecord>,
  Same<z.output<typeof accountTokenTransferRecordSchema>, AccountTokenTransferRecord>,
  Same<z.output<typeof tokenHoldingRecordSchema>, TokenHoldingRecord>,
  Same<z.output<typeof tokenAnalyticsRecordSchema>, TokenAnalyticsRecord>,
  Same<z.output<typeof contractRecordSchema>, ContractRecord>,
  Same<z.output<typeof contractEventRecordSchema>, ContractEventRecord>,
  Same<z.output<typeof decodedLogRecordSchema>, DecodedLogRecord>,
  Same<z.output<typeof metadataProfileRecordSchema>, MetadataProfileRecord>,
  Same<z.output<typeof searchMatchSchema>, SearchMatch>,
  Same<z.output<typeof chartSeriesRecordSchema>, ChartSeriesRecord>,
  Same<z.output<typeof chartRecordSchema>, ChartRecord>,
  Same<z.output<typeof addressLabelRecordSchema>, AddressLabelRecord>,
  Same<z.output<typeof watchlistEntryRecordSchema>, WatchlistEntryRecord>,
  Same<z.output<typeof approvalRecordSchema>, ApprovalRecord>,
  Same<z.output<typeof nftRecordSchema>, NftRecord>,
  Same<z.output<typeof userRecordSchema>, UserRecord>,
  Same<z.output<typeof apiKeyRecordSchema>, ApiKeyRecord>,
  Same<z.output<typeof createdApiKeyRecordSchema>, CreatedApiKeyRecord>,
  Same<z.output<typeof accessTokenSchema>, AccessToken>,
][number] extends true
  ? true
  : never;
const recordSchemasMatch: RecordSchemasMatch = true;
void recordSchemasMatch;
