import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import type { Services } from '../../services/index.js';
import type { Hex } from '../../storage/index.js';
import { addressSchema, optionalBlockNumberQuery, positiveIntQuery } from '../schemas.js';

const contractParams = z.object({ address: addressSchema });

/** `/api/v1/contract/*`: contracts. */
export function contractRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/contract/:address',
      auth: 'none',
      cache: 'head',
      summary: 'A contract: its creation, balance, transaction count, and whether it is a token or a proxy (and of what)',
      params: contractParams,
      handler: ({ params }) => services.contracts.contract(params.address),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/contract/:address/events',
      auth: 'none',
      cache: 'head',
      summary: 'Logs a contract emitted, newest first unless sort=asc, decoded where a known ABI describes them',
      params: contractParams,
      query: z.object({
        fromBlock: optionalBlockNumberQuery,
        toBlock: optionalBlockNumberQuery,
        topic0: z
          .string()
          .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 32-byte 0x-prefixed hex event selector')
          .transform((v) => v.toLowerCase() as Hex)
          .optional(),
        page: positiveIntQuery(1),
        offset: positiveIntQuery(50, 100),
        sort: z.enum(['asc', 'desc'], { message: "must be 'asc' or 'desc'" }).optional().default('desc'),
      }),
      handler: ({ params, query }) =>
        services.contracts.events({
          address: params.address,
          startBlock: query.fromBlock,
          endBlock: query.toBlock,
          topic0: query.topic0,
          page: query.page,
          offset: query.offset,
          sort: query.sort,
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/contract/:address/interactions',
      auth: 'none',
      cache: 'head',
      summary: 'Transactions between a user (query address) and the contract, either way, newest first',
      params: contractParams,
      query: z.object({ address: addressSchema, page: positiveIntQuery(1), offset: positiveIntQuery(50, 100) }),
      handler: ({ params, query }) => services.contracts.interactions({ contract: params.address, user: query.address, page: query.page, offset: query.offset }),
    }),
  ];
}
