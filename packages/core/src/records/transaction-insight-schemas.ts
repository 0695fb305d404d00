import { z } from 'zod';
import { decimal, hex, nullableLabel } from './fields.js';

/**
 * zod descriptions of the records that explain a transaction (decoded input and call tree,
 * balance changes, its type's fields) and of an account's delegation: the API description's
 * schemas and, inferred from them, the records' types.
 */

const signedDecimal = z.string().regex(/^-?\d+$/).describe('a signed decimal integer');

/** One decoded argument, result or error parameter. */
export const decodedParameterSchema = z.object({
  /** The ABI's name for it; `arg0`, `arg1`… where the ABI gives none. */
  name: z.string().describe('the ABI’s name; arg0, arg1… where it gives none'),
  /** Its ABI type, e.g. `address`, `uint256[]`, `tuple`. */
  type: z.string().describe('ABI type, e.g. address, uint256[], tuple'),
  /** Its value as text (see `abiValueText`). */
  value: z.string().describe('addresses and bytes as lowercase hex, numbers as decimal, tuples and arrays as JSON'),
});

/** Call data decoded as a function call. */
export const decodedCallSchema = z.object({
  functionName: z.string(),
  /** Canonical signature, e.g. `transfer(address,uint256)`. */
  signature: z.string().describe('e.g. transfer(address,uint256)'),
  /** A verified contract's ABI, or ChainLens's table of common functions. */
  source: z.enum(['verified', 'common']).describe('verified: a verified contract’s ABI; common: ChainLens’s table of common functions'),
  parameters: z.array(decodedParameterSchema),
});

/** A custom error decoded by a verified ABI. */
export const decodedErrorSchema = z.object({
  errorName: z.string(),
  /** Canonical signature, e.g. `Nope(uint256)`. */
  signature: z.string().describe('e.g. Nope(uint256)'),
  parameters: z.array(decodedParameterSchema),
});

/** `GET /transaction/:hash/input`. */
export const decodedInputRecordSchema = z.object({
  /** The input's first four bytes; `null` when it has none (a plain transfer, or a creation's init code). */
  selector: hex.nullable().describe('the input’s first four bytes; null for a plain transfer or a creation'),
  /** The callee's verified contract name; `null` where it is not verified. */
  contractName: z.string().nullable().describe('the callee’s verified name; null where not verified'),
  functionName: z.string().nullable().describe('null where no known ABI describes the input'),
  /** Canonical signature, e.g. `transfer(address,uint256)`. */
  signature: z.string().nullable(),
  /** `verified` (the callee's or its implementation's verified ABI) or `common` (ChainLens's table of common functions). */
  source: z.enum(['verified', 'common']).nullable(),
  parameters: z.array(decodedParameterSchema).nullable(),
});

/** `GET /transaction/:hash/calls`: one frame, its calls nested. */
export const decodedCallFrameRecordSchema = z.object({
  type: z.string().describe('CALL, STATICCALL, DELEGATECALL, CALLCODE, CREATE, CREATE2 or SELFDESTRUCT'),
  from: hex,
  fromLabel: nullableLabel('the caller'),
  to: hex.nullable(),
  toLabel: nullableLabel('the callee'),
  value: decimal.describe('Wei'),
  gas: decimal,
  gasUsed: decimal,
  input: hex,
  output: hex,
  error: z.string().nullable().describe('why the frame failed, as the node says; null when it did not'),
  /** The callee's verified contract name, `null` where it is not verified. */
  contractName: z.string().nullable().describe('the callee’s verified name; null where not verified'),
  /** The input decoded as a function call; `null` for a creation, a plain transfer or an unknown selector. */
  call: decodedCallSchema.nullable().describe('the input decoded; null for a creation, a plain transfer or an unknown selector'),
  /** What the function returned, decoded; `null` when the call failed or is not decoded. */
  result: z.array(decodedParameterSchema).nullable().describe('the return data decoded; null when the call failed or is not decoded'),
  /** Why the frame failed, readable (`Error(string)`'s text, a panic's meaning, a decoded custom error, else the revert data); `null` when it did not fail. */
  revertReason: z.string().nullable().describe('why the frame failed, readable; null when it did not'),
  /** The custom error the frame reverted with, decoded by a verified ABI of the tree; `null` otherwise. */
  revertError: decodedErrorSchema.nullable().describe('the custom error it reverted with, where a verified ABI declares it'),
  get calls(): z.ZodArray<typeof decodedCallFrameRecordSchema> {
    return z.array(decodedCallFrameRecordSchema);
  },
});

/** `GET /transaction/:hash/balance-changes`. */
export const balanceChangesRecordSchema = z.object({
  hash: hex,
  /**
   * Ether changes, from the call tree: the value of every call that was not undone, the fee the
   * sender paid (blob fee included) and the priority fee the block's miner got (the base fee is
   * burnt). `null` where the node does not trace: calls inside the transaction cannot be seen.
   */
  ether: z
    /** How much ether an address gained (positive) or lost (negative) in the transaction. */
    .array(z.object({ address: hex, label: nullableLabel('the address'), change: signedDecimal.describe('signed Wei') }))
    .nullable()
    .describe('calls’ values, the fee and the miner’s priority fee; null where the node does not trace'),
  /** Token changes, from the transaction's transfer events (mints and burns: the zero address is left out). */
  tokens: z.array(
    /** How much of a token (of one id, for ERC-721 and ERC-1155) an address gained or lost. */
    z.object({
      address: hex,
      label: nullableLabel('the address'),
      token: hex,
      standard: z.enum(['ERC-20', 'ERC-721', 'ERC-1155']),
      tokenName: z.string().nullable(),
      tokenSymbol: z.string().nullable(),
      tokenDecimal: z.string().nullable(),
      tokenId: decimal.nullable().describe('null for ERC-20'),
      change: signedDecimal.describe('signed, base units'),
    }),
  ),
});

/** `GET /transaction/:hash/envelope`. */
export const transactionEnvelopeRecordSchema = z.object({
  hash: hex,
  /** EIP-2718 type number: 0 legacy, 1 access list, 2 EIP-1559, 3 blob, 4 set code. */
  type: z.number().int().describe('EIP-2718 type: 0 legacy, 1 access list, 2 EIP-1559, 3 blob, 4 set code'),
  /** The type's name, e.g. `set code (EIP-7702)`; `null` for a type ChainLens does not know (a chain's own). */
  typeName: z.string().nullable().describe('null for a type ChainLens does not know'),
  /** Type 4: the authorization list, in order. */
  authorizationList: z
    .array(
      z.object({
        /** The chain it is valid on; `0` means any chain. */
        chainId: decimal.describe('0: any chain'),
        /** The delegation target: the contract whose code the authority runs from then on (the zero address clears a delegation). */
        address: hex.describe('the delegation target'),
        /** The contract's public label, `null` without one. */
        addressLabel: nullableLabel('the delegation target'),
        /** The authority's account nonce it was signed for. */
        nonce: decimal,
        /** The account that signed it (the EOA that delegates), recovered from its signature; `null` when the signature does not recover. */
        authority: hex.nullable().describe('the account that signed it, recovered; null when the signature does not recover'),
        /** The authority's public label, `null` without one. */
        authorityLabel: nullableLabel('the authority'),
      }),
    )
    .nullable()
    .describe('type 4 only'),
  /** Type 3: the blobs' versioned hashes, in order. */
  blobVersionedHashes: z.array(hex).nullable().describe('type 3 only'),
  /** Type 3: how many blobs it carried. */
  blobCount: z.number().int().nullable().describe('type 3 only'),
  /** Type 3: blob gas used (131,072 per blob). */
  blobGasUsed: decimal.nullable().describe('type 3 only'),
  /** Type 3: the blob base fee it paid, Wei per blob gas. */
  blobGasPrice: decimal.nullable().describe('type 3 only: Wei per blob gas'),
  /** Type 3: the most the sender offered per blob gas, Wei. */
  maxFeePerBlobGas: decimal.nullable().describe('type 3 only'),
});

/** `GET /account/delegation`. */
export const delegationRecordSchema = z.object({
  address: hex,
  /** The contract whose code the account runs; `null` when it delegates to none (an ordinary account, or a contract). */
  delegatedTo: hex.nullable().describe('the contract whose code the account runs (EIP-7702); null when none'),
  /** The delegation target's public label, `null` without one. */
  delegatedToLabel: nullableLabel('the delegation target'),
  /** The block the code was read at (the indexed head); `null` before anything is indexed (then read at the node's latest). */
  blockNumber: decimal.nullable().describe('the indexed head the code was read at; null before anything is indexed'),
});
