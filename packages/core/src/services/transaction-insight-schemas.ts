import { z } from 'zod';
import type { DecodedCall, DecodedError, DecodedParameter } from '../abi/index.js';
import type { BalanceChangesRecord } from './balance-change-service.js';
import type { DecodedCallFrameRecord } from './call-decoding.js';
import type { DelegationRecord } from './delegation-service.js';
import { decimal, hex, nullableLabel, type Same } from './record-fields.js';
import type { TransactionEnvelopeRecord } from './transaction-envelope-service.js';
import type { DecodedInputRecord } from './transaction-decoding-service.js';

/**
 * zod descriptions of the records that explain a transaction (decoded input and call tree,
 * balance changes, its type's fields) and of an account's delegation, for the API description;
 * the check at the end keeps each one equal to its interface.
 */

const signedDecimal = z.string().regex(/^-?\d+$/).describe('a signed decimal integer');

/** One decoded argument, result or error parameter. */
export const decodedParameterSchema = z.object({
  name: z.string().describe('the ABI’s name; arg0, arg1… where it gives none'),
  type: z.string().describe('ABI type, e.g. address, uint256[], tuple'),
  value: z.string().describe('addresses and bytes as lowercase hex, numbers as decimal, tuples and arrays as JSON'),
});

/** Call data decoded as a function call. */
export const decodedCallSchema = z.object({
  functionName: z.string(),
  signature: z.string().describe('e.g. transfer(address,uint256)'),
  source: z.enum(['verified', 'common']).describe('verified: a verified contract’s ABI; common: ChainLens’s table of common functions'),
  parameters: z.array(decodedParameterSchema),
});

/** A custom error decoded by a verified ABI. */
export const decodedErrorSchema = z.object({
  errorName: z.string(),
  signature: z.string().describe('e.g. Nope(uint256)'),
  parameters: z.array(decodedParameterSchema),
});

/** `GET /transaction/:hash/input`. */
export const decodedInputRecordSchema = z.object({
  selector: hex.nullable().describe('the input’s first four bytes; null for a plain transfer or a creation'),
  contractName: z.string().nullable().describe('the callee’s verified name; null where not verified'),
  functionName: z.string().nullable().describe('null where no known ABI describes the input'),
  signature: z.string().nullable(),
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
  contractName: z.string().nullable().describe('the callee’s verified name; null where not verified'),
  call: decodedCallSchema.nullable().describe('the input decoded; null for a creation, a plain transfer or an unknown selector'),
  result: z.array(decodedParameterSchema).nullable().describe('the return data decoded; null when the call failed or is not decoded'),
  revertReason: z.string().nullable().describe('why the frame failed, readable; null when it did not'),
  revertError: decodedErrorSchema.nullable().describe('the custom error it reverted with, where a verified ABI declares it'),
  get calls(): z.ZodArray<typeof decodedCallFrameRecordSchema> {
    return z.array(decodedCallFrameRecordSchema);
  },
});

/** `GET /transaction/:hash/balance-changes`. */
export const balanceChangesRecordSchema = z.object({
  hash: hex,
  ether: z
    .array(z.object({ address: hex, label: nullableLabel('the address'), change: signedDecimal.describe('signed Wei') }))
    .nullable()
    .describe('calls’ values, the fee and the miner’s priority fee; null where the node does not trace'),
  tokens: z.array(
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
  type: z.number().int().describe('EIP-2718 type: 0 legacy, 1 access list, 2 EIP-1559, 3 blob, 4 set code'),
  typeName: z.string().nullable().describe('null for a type ChainLens does not know'),
  authorizationList: z
    .array(
      z.object({
        chainId: decimal.describe('0: any chain'),
        address: hex.describe('the delegation target'),
        addressLabel: nullableLabel('the delegation target'),
        nonce: decimal,
        authority: hex.nullable().describe('the account that signed it, recovered; null when the signature does not recover'),
        authorityLabel: nullableLabel('the authority'),
      }),
    )
    .nullable()
    .describe('type 4 only'),
  blobVersionedHashes: z.array(hex).nullable().describe('type 3 only'),
  blobCount: z.number().int().nullable().describe('type 3 only'),
  blobGasUsed: decimal.nullable().describe('type 3 only'),
  blobGasPrice: decimal.nullable().describe('type 3 only: Wei per blob gas'),
  maxFeePerBlobGas: decimal.nullable().describe('type 3 only'),
});

/** `GET /account/delegation`. */
export const delegationRecordSchema = z.object({
  address: hex,
  delegatedTo: hex.nullable().describe('the contract whose code the account runs (EIP-7702); null when none'),
  delegatedToLabel: nullableLabel('the delegation target'),
  blockNumber: decimal.nullable().describe('the indexed head the code was read at; null before anything is indexed'),
});

/** Fails the typecheck when a schema and its record interface part ways. */
export type InsightSchemasMatch = [
  Same<z.output<typeof decodedParameterSchema>, DecodedParameter>,
  Same<z.output<typeof decodedCallSchema>, DecodedCall>,
  Same<z.output<typeof decodedErrorSchema>, DecodedError>,
  Same<z.output<typeof decodedInputRecordSchema>, DecodedInputRecord>,
  Same<z.output<typeof decodedCallFrameRecordSchema>, DecodedCallFrameRecord>,
  Same<z.output<typeof balanceChangesRecordSchema>, BalanceChangesRecord>,
  Same<z.output<typeof transactionEnvelopeRecordSchema>, TransactionEnvelopeRecord>,
  Same<z.output<typeof delegationRecordSchema>, DelegationRecord>,
][number] extends true
  ? true
  : never;
const insightSchemasMatch: InsightSchemasMatch = true;
void insightSchemasMatch;
