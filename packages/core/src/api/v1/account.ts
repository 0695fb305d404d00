import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import type { Services } from '../../services/index.js';
import { accountSummaryRecordSchema, balanceRecordSchema, transactionRecordSchema } from '../../services/record-schemas.js';
import { addressSchema, optionalBlockNumberQuery, positiveIntQuery } from '../schemas.js';

/** `/api/v1/account/*`: balances, transaction lists (Etherscan-style parameters) and summaries. */
export function accountRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/balance',
      response: balanceRecordSchema,
      errors: ['UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      cache: 'head',
      summary: 'Native balance of an address at the newest indexed block',
      query: z.object({ address: addressSchema }),
      handler: ({ query }) => services.accounts.balance(query.address),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/summary',
      response: accountSummaryRecordSchema,
      errors: ['UPSTREAM_UNAVAILABLE'],
      auth: 'user',
      summary: 'Balance, transaction and token transfer counts, first and last activity, and kind of an address',
      query: z.object({ address: addressSchema }),
      handler: ({ query }) => services.accounts.summary(query.address),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/txlist',
      auth: 'none',
      cache: 'head',
      summary: 'Transactions from, to or creating an address',
      response: z.array(transactionRecordSchema),
      query: z.object({
        address: addressSchema,
        startblock: optionalBlockNumberQuery,
        endblock: optionalBlockNumberQuery,
        page: positiveIntQuery(1),
        offset: positiveIntQuery(50, 1000),
        sort: z.enum(['asc', 'desc'], { message: "must be 'asc' or 'desc'" }).optional().default('asc'),
      }),
      handler: ({ query }) =>
        services.accounts.transactions({
          address: query.address,
          startBlock: query.startblock,
          endBlock: query.endblock,
          page: query.page,
          offset: query.offset,
          sort: query.sort,
        }),
    }),
  ];
}
