import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import { addressParams, positiveIntQuery } from '../../http/request-schemas.js';
import { addressSchema } from '../../values/hex.js';
import { optionalBlockTagQuery } from '../../values/block-tag.js';
import { JsonArrayText } from '../../records/json-array-text.js';
import { logsScope, verificationScope } from '../../services/block-lineage.js';
import type { Services } from '../../explorer-services.js';
import { contractEventRecordSchema, contractRecordSchema, transactionRecordSchema } from '../../records/record-schemas.js';
import type { Hex } from '../../storage/index.js';

/**
 * `/api/v1/contract/*`: contracts. The record, its ABI and its decoded events depend on verified
 * source, which changes without the head moving, so those answers are not kept per head.
 */
export function contractRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/contract/:address',
      response: contractRecordSchema,
      errors: ['CONTRACT_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: 'A contract: its creation, balance, transaction count, verified source details, and whether it is a token or a proxy (and of what)',
      params: addressParams,
      handler: ({ params }) => services.contracts.contract(params.address),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/contract/:address/abi',
      response: z.array(z.record(z.string(), z.unknown())).describe('the verified contract\'s ABI'),
      errors: ['CONTRACT_NOT_VERIFIED'],
      auth: 'none',
      summary: "The contract's verified ABI (its own, for a proxy too); 404 when its source is not verified",
      params: addressParams,
      handler: ({ params }) => services.contracts.abi(params.address),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/contract/:address/events',
      response: z.array(contractEventRecordSchema),
      errors: ['QUERY_TOO_LARGE', 'BLOCK_NOT_FOUND'],
      auth: 'none',
      cache: 'head',
      // Only the contract's logs and its verification move the page, unless its range starts at the moving head.
      cacheScopes: (params, query) => (query.fromBlock === 'latest' ? undefined : [logsScope(params.address ?? ''), verificationScope(params.address ?? '')]),
      // Later logs come after every log a full oldest-first page shows, unless its range starts at
      // the moving head; the contract's verification still changes how they decode.
      appendOnlyPage: (query, result, params) =>
        query.sort === 'asc' && query.fromBlock !== 'latest' && (Array.isArray(result) || result instanceof JsonArrayText) && result.length === query.offset ? [verificationScope(params.address ?? '')] : false,
      summary: 'Logs a contract emitted, newest first unless sort=asc, decoded with its verified ABI, else the standard ABIs',
      params: addressParams,
      query: z.object({
        fromBlock: optionalBlockTagQuery,
        toBlock: optionalBlockTagQuery,
        topic0: z
          .string()
          .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 32-byte 0x-prefixed hex event selector')
          .transform((v) => v.toLowerCase() as Hex)
          .optional(),
        page: positiveIntQuery(1),
        offset: positiveIntQuery(50, 100),
        sort: z.enum(['asc', 'desc'], { message: "must be 'asc' or 'desc'" }).optional().default('desc'),
      }),
      handler: async ({ params, query }) =>
        services.contracts.eventsPage({
          address: params.address,
          ...(await services.blocks.bounds({ start: query.fromBlock, end: query.toBlock })),
          topic0: query.topic0,
          page: query.page,
          offset: query.offset,
          sort: query.sort,
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/contract/:address/interactions',
      response: z.array(transactionRecordSchema),
      auth: 'none',
      cache: 'head',
      summary: 'Transactions between a user (query address) and the contract, either way, newest first',
      params: addressParams,
      query: z.object({ address: addressSchema, page: positiveIntQuery(1), offset: positiveIntQuery(50, 100) }),
      handler: ({ params, query }) => services.contracts.interactions({ contract: params.address, user: query.address, page: query.page, offset: query.offset }),
    }),
  ];
}
