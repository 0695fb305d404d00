import { buildSchema, getNamedType, getNullableType, isListType, isNonNullType, isObjectType, type GraphQLField, type GraphQLOutputType } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  accountSummaryRecordSchema,
  accountTokenTransferRecordSchema,
  approvalRecordSchema,
  blockRecordSchema,
  chartRecordSchema,
  chartSeriesRecordSchema,
  consensusInfoRecordSchema,
  contractRecordSchema,
  logRecordSchema,
  networkStatsRecordSchema,
  searchMatchSchema,
  tokenHoldersRecordSchema,
  tokenHoldingRecordSchema,
  tokenListItemSchema,
  tokenRecordSchema,
  tokenTransferRecordSchema,
  transactionRecordSchema,
  validatorRecordSchema,
} from '../records/record-schemas.js';
import { nftRecordSchema } from '../records/nft-record-schemas.js';
import {
  balanceChangesRecordSchema,
  decodedCallFrameRecordSchema,
  decodedCallSchema,
  decodedErrorSchema,
  decodedInputRecordSchema,
  decodedParameterSchema,
  delegationRecordSchema,
  transactionEnvelopeRecordSchema,
} from '../records/transaction-insight-schemas.js';
import { rootFields } from './fields/root.js';
import { BUILT_IN_GRAPHQL, typeDefs } from '../features/built-in-graphql.js';

type AnyObjectSchema = z.ZodObject<z.ZodRawShape>;

/** The object a record's field holds, alone or in a list, nullable or not. */
function inner(field: z.ZodType): AnyObjectSchema {
  const def = field.def as { type: string; innerType?: z.ZodType; element?: z.ZodType };
  if (def.type === 'nullable') return inner(def.innerType!);
  if (def.type === 'array') return inner(def.element!);
  return field as unknown as AnyObjectSchema;
}

/** The search match whose `type` is `type`. */
function searchMatch(type: string): AnyObjectSchema {
  const match = searchMatchSchema.options.find((option) => option.shape.type.value === type);
  if (!match) throw new Error(`no search match of type ${type}`);
  return match as unknown as AnyObjectSchema;
}

/**
 * The GraphQL types that answer a record, with the record's schema. A field without a resolver is
 * read from the record as it is, so it must be one of the record's fields, as nullable and as much
 * a list as there. `mirrors` names the record field behind a field a resolver renames or converts
 * (`nullWhereEmpty`: the resolver answers null for the record's '').
 */
const RECORDS: Record<string, { schema: AnyObjectSchema; mirrors?: Record<string, string>; nullWhereEmpty?: readonly string[] }> = {
  Block: { schema: blockRecordSchema, mirrors: { number: 'blockNumber' } },
  Transaction: {
    schema: transactionRecordSchema,
    mirrors: { status: 'txreceipt_status', to: 'to', contractAddress: 'contractAddress' },
    nullWhereEmpty: ['to', 'contractAddress'],
  },
  Log: { schema: logRecordSchema },
  Validator: { schema: validatorRecordSchema },
  Consensus: { schema: consensusInfoRecordSchema, mirrors: { algorithm: 'consensusAlgorithm' } },
  NetworkStats: { schema: networkStatsRecordSchema },
  AccountSummary: { schema: accountSummaryRecordSchema },
  Token: { schema: tokenRecordSchema },
  TokenHolder: { schema: tokenHoldersRecordSchema.shape.holders.element as unknown as AnyObjectSchema },
  TokenTransfer: { schema: tokenTransferRecordSchema, mirrors: { transactionHash: 'hash' } },
  TokenListItem: { schema: tokenListItemSchema },
  Contract: { schema: contractRecordSchema },
  ChartSeries: { schema: chartSeriesRecordSchema },
  Chart: { schema: chartRecordSchema, mirrors: { resolution: 'resolution' } },
  ChartPoint: { schema: chartRecordSchema.shape.points.element as unknown as AnyObjectSchema },
  BlockMatch: { schema: searchMatch('block') },
  TransactionMatch: { schema: searchMatch('transaction') },
  ContractMatch: { schema: searchMatch('contract') },
  AddressMatch: { schema: searchMatch('address') },
  TokenMatch: { schema: searchMatch('token') },
  TokenHolding: { schema: tokenHoldingRecordSchema },
  Nft: { schema: nftRecordSchema },
  NftMetadata: { schema: inner(nftRecordSchema.shape.metadata) },
  AccountTokenTransfer: { schema: accountTokenTransferRecordSchema, mirrors: { transactionHash: 'hash' } },
  Approval: { schema: approvalRecordSchema },
  Delegation: { schema: delegationRecordSchema },
  DecodedInput: { schema: decodedInputRecordSchema },
  DecodedParameter: { schema: decodedParameterSchema },
  DecodedCall: { schema: decodedCallSchema },
  DecodedError: { schema: decodedErrorSchema },
  CallFrame: { schema: decodedCallFrameRecordSchema },
  BalanceChanges: { schema: balanceChangesRecordSchema },
  EtherBalanceChange: { schema: inner(balanceChangesRecordSchema.shape.ether) },
  TokenBalanceChange: { schema: inner(balanceChangesRecordSchema.shape.tokens) },
  TransactionEnvelope: { schema: transactionEnvelopeRecordSchema },
  Authorization: { schema: inner(transactionEnvelopeRecordSchema.shape.authorizationList) },
};

/** Object types made by resolvers rather than read from one record. */
const COMPOSED = new Set(['Query', 'Subscription', 'Blockchain', 'Account', 'TokenHolders', 'PageInfo']);

/** A field's shape as both sides can say it: nullable, a list (of what), and its kind of value. */
interface Shape {
  nullable: boolean;
  list: Shape | null;
  kind: 'string' | 'number' | 'boolean' | 'object';
}

const KIND_OF_ZOD: Record<string, Shape['kind']> = {
  string: 'string',
  enum: 'string',
  literal: 'string',
  template_literal: 'string',
  number: 'number',
  boolean: 'boolean',
  object: 'object',
};

function zodShape(schema: z.ZodType): Shape {
  const def = schema.def as { type: string; innerType?: z.ZodType; element?: z.ZodType };
  if (def.type === 'nullable') return { ...zodShape(def.innerType!), nullable: true };
  if (def.type === 'array') return { nullable: false, list: zodShape(def.element!), kind: 'object' };
  const kind = KIND_OF_ZOD[def.type];
  if (!kind) throw new Error(`no GraphQL counterpart for a zod ${def.type}`);
  return { nullable: false, list: null, kind };
}

function graphqlShape(type: GraphQLOutputType): Shape {
  const inner = getNullableType(type);
  if (isListType(inner)) return { nullable: !isNonNullType(type), list: graphqlShape(inner.ofType), kind: 'object' };
  const name = getNamedType(inner).name;
  const kind = name === 'Int' || name === 'Float' ? 'number' : name === 'Boolean' ? 'boolean' : isObjectType(inner) ? 'object' : 'string';
  return { nullable: !isNonNullType(type), list: null, kind };
}

const schema = buildSchema(typeDefs);
/** The fields of `type` some module's contribution resolves (a type's fields may come from several modules). */
const resolverFields = (type: string): Set<string> => new Set([rootFields, ...BUILT_IN_GRAPHQL].flatMap((part) => Object.keys(part.resolvers[type] ?? {})));

describe('the GraphQL SDL against the record schemas', () => {
  it('names, for every object type, the record it answers or that resolvers compose it', () => {
    const objectTypes = Object.values(schema.getTypeMap()).filter((type) => isObjectType(type) && !type.name.startsWith('__'));
    const unplaced = objectTypes.map((type) => type.name).filter((name) => !(name in RECORDS) && !COMPOSED.has(name) && !/(Connection|Edge)$/.test(name));
    expect(unplaced).toEqual([]);
  });

  describe.each(Object.entries(RECORDS))('%s', (typeName, { schema: recordSchema, mirrors = {}, nullWhereEmpty = [] }) => {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`${typeName} is no object type of the SDL`);
    const fields: GraphQLField<unknown, unknown>[] = Object.values(type.getFields());
    const resolved = resolverFields(typeName);
    const recordFields = recordSchema.shape as Record<string, z.ZodType>;

    it('reads every field without a resolver from a record field of the same shape', () => {
      const read = fields.filter((field) => !resolved.has(field.name));
      const mismatches = read.flatMap((field) => {
        const recordField = recordFields[field.name];
        if (!recordField) return [`${field.name}: not in the record`];
        const [sdl, zod] = [graphqlShape(field.type), zodShape(recordField)];
        return JSON.stringify(sdl) === JSON.stringify(zod) ? [] : [`${field.name}: SDL ${JSON.stringify(sdl)}, record ${JSON.stringify(zod)}`];
      });
      expect(mismatches).toEqual([]);
    });

    it('mirrors the record field behind each renamed or converted field', () => {
      const mismatches = Object.entries(mirrors).flatMap(([name, from]) => {
        const field = type.getFields()[name];
        const recordField = recordFields[from];
        if (!field || !recordField) return [`${name} ← ${from}: missing`];
        if (!resolved.has(name)) return [`${name}: no resolver reads ${from}`];
        const zod = zodShape(recordField);
        const expected = nullWhereEmpty.includes(name) ? { ...zod, nullable: true } : zod;
        const sdl = graphqlShape(field.type);
        return JSON.stringify(sdl) === JSON.stringify(expected) ? [] : [`${name} ← ${from}: SDL ${JSON.stringify(sdl)}, record ${JSON.stringify(expected)}`];
      });
      expect(mismatches).toEqual([]);
    });
  });
});
