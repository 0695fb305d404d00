import { z } from 'zod';
import { decimal, flag, hex, nullableLabel } from './fields.js';
import { decodedErrorSchema } from './transaction-insight-schemas.js';

/**
 * The records services shape, each defined once: the zod schema describes it in the API
 * description (`/api/v1/openapi.json`) and its TypeScript type is inferred from it
 * (`type TransactionRecord = z.infer<typeof transactionRecordSchema>` beside the service).
 */

/** Transaction (spec: Transaction), Etherscan style. */
export const transactionRecordSchema = z.object({
  hash: hex,
  blockNumber: decimal,
  blockHash: hex,
  timestamp: decimal.describe('Unix seconds'),
  from: hex,
  /** The sender's public label, `null` without one. */
  fromLabel: nullableLabel('the sender'),
  to: z.string().describe("the recipient, '' for a contract creation"),
  /** The recipient's public label (the created contract's for a creation), `null` without one. */
  toLabel: nullableLabel('the recipient (the created contract, for a creation)'),
  value: decimal.describe('Wei'),
  gas: decimal,
  gasPrice: decimal,
  gasUsed: decimal,
  /** Gas used by the block up to and including this transaction. */
  cumulativeGasUsed: decimal,
  nonce: decimal,
  input: hex,
  transactionIndex: decimal,
  confirmations: decimal,
  isError: flag,
  txreceipt_status: flag,
  /** The created contract ('' when none), as Etherscan's txlist has it. */
  contractAddress: z.string().describe("the created contract, '' when none"),
});

/** Log (spec: Log). */
export const logRecordSchema = z.object({
  address: hex,
  /** The emitting contract's public label, `null` without one. */
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
  /** The sender's public label, `null` without one. */
  fromLabel: nullableLabel('the sender'),
  to: hex.nullable(),
  /** The recipient's public label (the created contract's for a creation), `null` without one. */
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
  /** The miner's public label, `null` without one. */
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
  /** `down` when storage cannot be reached; `degraded` when the node cannot, or indexing lags. */
  status: z.enum(['ok', 'degraded', 'down']),
  chainId: z.number().int().nullable(),
  /** The node's newest block; `null` while it cannot be reached. */
  latestBlock: z.number().int().nullable(),
  indexedBlock: z.number().int().nullable(),
  /** `latestBlock - indexedBlock`, when both are known. */
  lag: z.number().int().nullable(),
  /**
   * The block through which every indexed block's call traces are stored (they are read behind
   * the blocks); `null` before the first block is traced and where the node does not trace.
   */
  tracedBlock: z
    .number()
    .int()
    .nullable()
    .describe(
      'the block through which every indexed block’s call traces (internal transactions, contracts created inside transactions) are stored; null before the first block is traced and where the node does not trace',
    ),
  /** `indexedBlock - tracedBlock`, when both are known. */
  traceLag: z.number().int().nullable().describe('indexedBlock - tracedBlock, when both are known'),
  storage: z.enum(['ok', 'down']),
  /** Seconds since the explorer was created. */
  uptime: z.number().describe('seconds since the explorer was created'),
});

/** Balance (decisions.md: `GET /account/balance`). */
export const balanceRecordSchema = z.object({
  address: hex,
  /** The address's public label, `null` without one. */
  label: nullableLabel('the address'),
  /** Wei, decimal. */
  balance: decimal.describe('Wei'),
  /** The block the balance was read at (the newest indexed block, else the node's latest). */
  blockNumber: decimal.describe('the block the balance was read at'),
});

/** An address at a glance (decisions.md: `GET /account/summary`). */
export const accountSummaryRecordSchema = z.object({
  address: hex,
  /** The address's public label, `null` without one. */
  label: nullableLabel('the address'),
  /** Wei, decimal, at the newest indexed block. */
  balance: decimal.describe('Wei, at the newest indexed block'),
  /** Indexed transactions from, to or creating the address. */
  transactionCount: z.number().int(),
  /** Indexed token transfers with the address as sender or recipient. */
  tokenTransferCount: z.number().int(),
  /** Unix seconds of the block of its first and last indexed transaction; `null` without any. */
  firstSeen: decimal.nullable().describe('Unix seconds'),
  lastSeen: decimal.nullable().describe('Unix seconds'),
  /** Whether code is deployed at the address at the newest indexed block. */
  isContract: z.boolean(),
});

/** `gettxinfo`: the Transaction plus its outcome and logs. */
export const transactionInfoRecordSchema = transactionRecordSchema.extend({
  success: z.boolean(),
  /** Why a failed transaction reverted (a custom error decoded where a verified ABI declares it); `null` for a success. */
  revertReason: z.string().nullable().describe('why a failed transaction reverted (a custom error decoded where a verified ABI declares it); null for a success'),
  /** The custom error a failed transaction reverted with, decoded by a verified ABI of a contract it called; `null` otherwise. */
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
  /** `null` while not in a block. */
  blockNumber: decimal.nullable(),
  confirmations: z.number().int(),
  /** Block timestamp once mined; first-seen time while pending or dropped; else `null`. */
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
  /** The caller's public label, `null` without one. */
  fromLabel: nullableLabel('the caller'),
  to: hex.nullable(),
  /** The callee's (created contract's, beneficiary's) public label, `null` without one. */
  toLabel: nullableLabel('the callee (the created contract, the beneficiary of a self-destruct)'),
  value: decimal,
  gas: decimal,
  gasUsed: decimal,
  input: hex,
  output: hex,
  error: z.string().nullable(),
  /** The frames this one called, in order. */
  get calls(): z.ZodArray<typeof transactionTraceRecordSchema> {
    return z.array(transactionTraceRecordSchema);
  },
});

/** Validator (spec: Validator). */
export const validatorRecordSchema = z.object({
  address: hex,
  /** The validator's public label, `null` without one. */
  label: nullableLabel('the validator'),
  votingPower: z.string().nullable(),
  proposerPriority: z.string().nullable(),
  isActive: z.boolean(),
  /** Percent of the window blocks due from it that it produced; `null` where the rotation is unknown. */
  uptime: z.number().nullable(),
  /** Blocks it produced within `consensus.validatorWindowBlocks`. */
  totalBlocks: z.number().int(),
  /** Blocks due from it within the window that another produced; `null` where the rotation is unknown. */
  missedBlocks: z.number().int().nullable(),
  /** Staking details no supported source can read: always `null`. */
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
  /** Mean seconds between the window's blocks, rounded; `null` with fewer than two blocks. */
  blockTime: z.number().nullable(),
  epoch: z.number().int().nullable(),
  epochBlocks: z.number().int().nullable(),
  /** The newest indexed block. */
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
  /** Indexed blocks from this one to the indexed head, itself included. */
  confirmations: z.number().int(),
  /** Confirmations that make a block final now; `null` while the source cannot tell (the node's `finalized` tag still at genesis on a young chain). */
  requiredConfirmations: z.number().int().nullable(),
  /** Unix seconds; `null` while not final and where the source cannot tell when. */
  finalizedAt: decimal.nullable(),
  /** The signatures that make the block final; `null` where finality is not signed. */
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
  /** Mean seconds between the window's blocks. */
  blockTime: z.number(),
  /** Transactions per second over the window. */
  tps: z.number(),
  /** Highest single-block rate (transactions ÷ seconds since its parent) within the window. */
  peakTps: z.number(),
  /** The node's `eth_gasPrice`; `null` while the node is unreachable. */
  gasPrice: decimal.nullable(),
  /** `difficulty ÷ blockTime` of the newest block ("0" on proof-of-stake chains). */
  networkHashrate: z.string(),
  difficulty: z.string(),
  /** The native coin's supply is not visible to an EVM node: `null`. */
  circulatingSupply: z.string().nullable(),
  totalSupply: z.string().nullable(),
  totalAccounts: z.number().int(),
  totalTransactions: z.number().int(),
  totalContracts: z.number().int(),
  /** Peers of the upstream node plus the node itself (`net_peerCount + 1`); `null` if unknown. */
  activeNodes: z.number().int().nullable(),
  /** Mean gas used ÷ gas limit over the window, in percent. */
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
  /** `totalSupply()` at the newest indexed block; `null` where the contract has none. */
  totalSupply: decimal.nullable(),
  /** ERC-165 interfaces the contract declares (`ERC-721`, `ERC-1155`, …); empty without ERC-165. */
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
      /** Percent of `totalSupply` (0–100, decimal); `null` where the contract reports no total supply. */
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
  /** The sender's public label, `null` without one. */
  fromLabel: nullableLabel('the sender'),
  to: hex,
  /** The recipient's public label, `null` without one. */
  toLabel: nullableLabel('the recipient'),
  value: decimal.describe('base units'),
  tokenId: decimal.nullable(),
  /** The token's name, symbol and decimals as its Token record has them: `null` where unknown. */
  tokenName: z.string().nullable().describe("the token's name as its Token record has it; null where unknown"),
  tokenSymbol: z.string().nullable().describe("the token's symbol as its Token record has it; null where unknown"),
  tokenDecimal: z.string().nullable().describe('decimals as the Token record has them; null where unknown (an NFT has none)'),
});

/** A token transfer listed among those of several tokens, with its token and the transaction that carried it. */
export const accountTokenTransferRecordSchema = tokenTransferRecordSchema.extend({
  /** The token contract. */
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
  /** In base units (an ERC-1155 balance sums every id). */
  balance: decimal.describe('base units; an ERC-1155 balance sums every id'),
});

/** Token analytics. */
export const tokenAnalyticsRecordSchema = z.object({
  price: z.object({ current: nullableText, change24h: nullableText, change7d: nullableText, high24h: nullableText, low24h: nullableText }),
  volume: z.object({ volume24h: nullableText, volumeChange24h: nullableText }),
  liquidity: z.object({ totalLiquidity: nullableText, liquidityPools: z.array(z.object({ dex: z.string(), pair: hex, liquidity: z.string() })) }),
  holders: z.object({
    total: z.number().int(),
    /** Holders now less holders 24 h of chain time before the newest indexed block; `null` when indexing began later than that. */
    change24h: z.number().nullable(),
    /** Share of `totalSupply()` the ten largest holders hold, in percent; `null` without a total supply. */
    top10Percentage: z.number().nullable(),
  }),
});

/** Contract (spec: Contract). */
export const contractRecordSchema = z.object({
  address: hex,
  name: nullableText,
  /** Etherscan's form, e.g. `v0.8.37+commit.f401782d`. */
  compiler: nullableText,
  optimization: z.boolean().nullable(),
  runs: z.number().int().nullable(),
  verified: z.boolean(),
  verifiedAt: nullableText,
  license: nullableText,
  creator: hex.nullable(),
  /** The contract's own public label, and its creator's; `null` without one. */
  label: nullableLabel('the contract'),
  creatorLabel: nullableLabel('its creator'),
  creationTx: hex.nullable(),
  creationBlock: decimal.nullable(),
  /** Wei at the newest indexed block. */
  balance: decimal.describe('Wei'),
  /** Indexed transactions sent to, from or creating it. */
  txCount: z.number().int(),
  /** It has indexed token transfers. */
  isToken: z.boolean(),
  isProxy: z.boolean(),
  proxyType: z.enum(['EIP-1167', 'EIP-1967', 'EIP-1967 beacon', 'EIP-1822', 'EIP-897']).nullable(),
  implementation: hex.nullable(),
});

/** A contract's event log, decoded where its signature is known. */
export const contractEventRecordSchema = z.object({
  address: hex,
  /** The contract's public label, `null` without one. */
  addressLabel: nullableLabel('the contract'),
  topics: z.array(hex),
  data: hex,
  blockNumber: decimal,
  transactionHash: hex,
  logIndex: decimal,
  /** `null` when neither the verified ABI nor a standard one describes the event (then `decoded` is empty). */
  eventName: nullableText,
  /** Parameter name → value as a string. */
  decoded: z.record(z.string(), z.string()),
});

/** A log decoded with a known ABI (`GET /transaction/:hash/logs?decode=true`). */
export const decodedLogRecordSchema = z.object({
  eventName: nullableText,
  eventSignature: nullableText.describe('e.g. Transfer(address,address,uint256)'),
  parameters: z.record(z.string(), z.string()),
  contractAddress: hex,
  /** The emitting contract's public label, `null` without one. */
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
  /** What values count: `count`, `gas`, `wei` or `usd`. */
  unit: z.enum(['count', 'gas', 'wei', 'usd']),
  token: z.enum(['none', 'optional', 'required']).describe('whether the series is the chain’s (none), one token’s (required) or either (optional)'),
  resolutions: z.array(z.enum(['hour', 'day'])),
});

/** A chart: a series over a range. */
export const chartRecordSchema = z.object({
  name: z.string(),
  resolution: z.enum(['hour', 'day']),
  /** The token of a per-token series, else `null`. */
  token: hex.nullable().describe('the token of a per-token series; null for the chain’s'),
  /** The range asked, in Unix seconds (`from` as its bucket starts). */
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
  /** The address's public label, `null` without one. */
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
  /** `allowance` (ERC-20 `Approval`) or `operator` (`ApprovalForAll`: every token id of an ERC-721 or ERC-1155 contract). */
  kind: z.enum(['allowance', 'operator']).describe('allowance: ERC-20 Approval; operator: ApprovalForAll (every token id)'),
  spender: hex,
  /** The spender's public label, `null` without one. */
  spenderLabel: nullableLabel('the spender'),
  value: decimal.describe('the amount last approved, base units (operator: 1)'),
  /** What the spender may still take now: the token's `allowance(owner, spender)` at the newest indexed block; `null` for an operator approval or where the token does not answer. */
  remaining: decimal.nullable().describe('allowance(owner, spender) at the newest indexed block, base units; null for operator approvals or where the token does not answer'),
  /** Where it was last set. */
  blockNumber: decimal,
  timestamp: decimal,
  transactionHash: hex,
});
