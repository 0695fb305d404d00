import { z } from 'zod';
import { decimal, flag, hex } from './fields.js';
import { logRecordSchema } from './record-schemas.js';

/**
 * The records only the Etherscan-compatible API answers, each defined once: services shape them,
 * `api/etherscan/` maps them to Etherscan's field names and string forms, and their types are
 * inferred from these schemas beside the services.
 */

/** Lowercase 0x-prefixed hex typed as `Hex`, for a field services pass on to what takes one. */
const hexValue = z.templateLiteral(['0x', z.string().regex(/^[0-9a-f]*$/)]).describe('lowercase 0x-prefixed hex');

/**
 * Gas prices to offer now, in Wei (decimal strings), read from the node's fee history: the next
 * block's base fee plus the 25th, 50th and 75th percentile priority fee paid in the recent
 * blocks (their median), so `safe ≤ propose ≤ fast`. Where the node keeps no fee history (before
 * London), all three are its `eth_gasPrice` and the base fee is `0`.
 */
export const gasOracleRecordSchema = z.object({
  /** The newest block the figures were read from. */
  lastBlock: decimal.describe('the newest block the figures were read from'),
  safeGasPrice: decimal.describe('Wei'),
  proposeGasPrice: decimal.describe('Wei'),
  fastGasPrice: decimal.describe('Wei'),
  /** Base fee of the next block. */
  suggestBaseFee: decimal.describe('the next block’s base fee, Wei'),
  /** Gas used ÷ gas limit of each block read, oldest first. */
  gasUsedRatio: z.array(z.number()).describe('gas used ÷ gas limit of each block read, oldest first'),
});

/**
 * Where and by whom a contract was created, as Etherscan's `getcontractcreation` tells it:
 * `creator` is the transaction's sender, `factory` the contract whose code created it (`null`
 * for the transaction's own creation).
 */
export const contractCreationRecordSchema = z.object({
  address: hexValue,
  creator: hexValue.describe('the transaction’s sender'),
  factory: hexValue.nullable().describe('the contract whose code created it; null for the transaction’s own creation'),
  transactionHash: hexValue,
  blockNumber: decimal,
  /** The block's time, Unix seconds. */
  timestamp: decimal.describe('Unix seconds'),
  /** The init code of the transaction's own creation (its input); `null` for a factory's, which only the call trace holds. */
  initCode: hexValue.nullable().describe('the transaction’s input for its own creation; null for a factory’s, which only the call trace holds'),
});

/**
 * A value transfer, contract creation or self-destruct inside a transaction (Etherscan's
 * "internal transaction"). Quantities are decimal strings.
 */
export const internalTransactionRecordSchema = z.object({
  blockNumber: decimal,
  timestamp: decimal.describe('Unix seconds'),
  /** The transaction it happened in. */
  hash: hex.describe('the transaction it happened in'),
  from: hex,
  /** The callee or beneficiary; `''` for a creation. */
  to: z.string().describe("the callee or beneficiary; '' for a creation"),
  value: decimal.describe('Wei'),
  /** The created contract; `''` for a call and for a creation that failed. */
  contractAddress: z.string().describe("the created contract; '' for a call and for a creation that failed"),
  /** `''`, as Etherscan answers: call data is not kept. */
  input: z.literal('').describe("'', as Etherscan answers: call data is not kept"),
  type: z.enum(['call', 'callcode', 'create', 'create2', 'selfdestruct']),
  gas: decimal,
  gasUsed: decimal,
  /** Position in the call tree: child indexes from the top call down, joined by `_` (`0_1`). */
  traceId: z.string().regex(/^\d+(_\d+)*$/).describe('position in the call tree: child indexes from the top call down, joined by _ (0_1)'),
  isError: flag,
  /** Why the frame failed (`execution reverted`, `out of gas`, …); `''` when it did not. */
  errCode: z.string().describe("why the frame failed, as the node says; '' when it did not"),
});

/** A beacon-chain withdrawal credited to an address, as the block that carried it lists it. */
export const beaconWithdrawalRecordSchema = z.object({
  withdrawalIndex: decimal,
  validatorIndex: decimal,
  address: hex,
  /** Gwei, as the block carries it. */
  amount: decimal.describe('Gwei, as the block carries it'),
  blockNumber: decimal,
  timestamp: decimal.describe('Unix seconds'),
});

/**
 * A block's miner and what its transactions paid that miner: each one's gas used times what it
 * paid per gas above the base fee (the base fee itself is burnt). The chain's own issuance, if
 * any, is not in it: no block or receipt tells it.
 */
export const blockFeeRewardRecordSchema = z.object({
  blockNumber: decimal,
  timestamp: decimal.describe('Unix seconds'),
  miner: hex,
  /** Wei. */
  priorityFees: decimal.describe('what the block’s transactions paid above the base fee, Wei'),
});

/** A log with its block's time and its transaction's gas price and gas used (what Etherscan's getLogs answers). */
export const logSearchRecordSchema = logRecordSchema.omit({ addressLabel: true }).extend({
  /** Unix seconds. */
  timestamp: decimal.describe('Unix seconds'),
  /** The effective price its transaction paid, Wei. */
  gasPrice: decimal.describe('the effective price its transaction paid, Wei'),
  gasUsed: decimal,
});
