import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import type { Services } from '../../services/index.js';
import type { Hex } from '../../storage/index.js';
import { formatPending } from '../../services/index.js';
import { booleanQuery, hashSchema, hexDataSchema, optionalAddressSchema, positiveIntQuery, uintStringSchema } from '../schemas.js';

const hashParams = z.object({ hash: hashSchema });

/** Most hashes one `/transaction/batch` request may ask for. */
const MAX_BATCH_HASHES = 100;

/** `/api/v1/transaction/*`: mined and pending transactions, submission and gas estimates. */
export function transactionRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/pending',
      auth: 'none',
      summary: 'Transactions in the pending pool, newest first',
      query: z.object({ address: optionalAddressSchema, limit: positiveIntQuery(50, 100) }),
      handler: ({ query }) => services.pending.list({ address: query.address, limit: query.limit }).map(formatPending),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/gettxinfo',
      auth: 'none',
      summary: 'A transaction with its outcome, revert reason and logs',
      query: z.object({ txhash: hashSchema }),
      handler: ({ query }) => services.transactions.info(query.txhash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/status/:hash',
      auth: 'none',
      summary: 'Lifecycle status of a transaction',
      params: hashParams,
      handler: ({ params }) => services.status.status(params.hash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash',
      auth: 'none',
      cache: 'head',
      summary: 'A mined transaction',
      params: hashParams,
      handler: ({ params }) => services.transactions.get(params.hash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash/receipt',
      auth: 'none',
      cache: 'head',
      summary: 'The receipt of a mined transaction',
      params: hashParams,
      handler: ({ params }) => services.transactions.receipt(params.hash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash/logs',
      auth: 'none',
      summary: 'Logs of a transaction; decode=true decodes known events',
      params: hashParams,
      query: z.object({ decode: booleanQuery }),
      handler: ({ params, query }) => services.transactions.logs(params.hash, query.decode),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/transaction/:hash/trace',
      auth: 'user',
      summary: 'The call tree of a mined transaction, from the node tracer',
      params: hashParams,
      handler: ({ params }) => services.traces.trace(params.hash),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/transaction/batch',
      auth: 'user',
      summary: 'Up to 100 mined transactions by hash, in input order, null for unknown ones',
      body: z.object({
        hashes: z
          .array(z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hash').transform((v) => v.toLowerCase() as Hex))
          .min(1, 'must hold at least one hash')
          .max(MAX_BATCH_HASHES, `must hold at most ${MAX_BATCH_HASHES} hashes`),
      }),
      handler: ({ body }) => services.transactions.getMany(body.hashes),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/transaction/send',
      auth: 'none',
      summary: 'Forward a signed raw transaction to the node',
      body: z.object({ signedTransaction: hexDataSchema.refine((v) => v.length > 2, 'must not be empty') }),
      handler: ({ body }) => services.submission.send(body.signedTransaction),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/transaction/estimate-gas',
      auth: 'none',
      summary: 'Estimate gas and cost of a call',
      body: z
        .object({
          from: optionalAddressSchema,
          to: optionalAddressSchema,
          value: uintStringSchema.optional(),
          data: hexDataSchema.optional(),
        })
        .refine((b) => b.to !== undefined || b.data !== undefined, { message: 'to or data is required' }),
      handler: ({ body }) => services.submission.estimateGas(body),
    }),
  ];
}

