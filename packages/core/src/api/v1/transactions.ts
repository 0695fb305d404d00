import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import type { Services } from '../../explorer-services.js';
import type { Hex } from '../../storage/index.js';
import { formatPending } from '../../services/index.js';
import {
  accountTokenTransferRecordSchema,
  decodedLogRecordSchema,
  gasEstimateRecordSchema,
  logRecordSchema,
  pendingTransactionRecordSchema,
  receiptRecordSchema,
  transactionInfoRecordSchema,
  transactionRecordSchema,
  transactionStatusRecordSchema,
  transactionTraceRecordSchema,
} from '../../records/record-schemas.js';
import { balanceChangesRecordSchema, decodedCallFrameRecordSchema, decodedInputRecordSchema, transactionEnvelopeRecordSchema } from '../../records/transaction-insight-schemas.js';
import { booleanQuery, positiveIntQuery, uintStringSchema } from '../../http/request-schemas.js';
import { hashSchema, hexDataSchema, optionalAddressSchema } from '../../values/hex.js';
import { optionalBlockTagQuery } from '../../values/block-tag.js';

const hashParams = z.object({ hash: hashSchema });

/** Deepest row `/transaction/list` pages reach (page × offset), as Etherscan's result window. */
const MAX_RESULT_WINDOW = 10_000;

/** Most hashes one `/transaction/batch` request may ask for. */
const MAX_BATCH_HASHES = 100;

/** `/api/v1/transaction/*`: mined and pending transactions, submission and gas estimates. */
export function transactionRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/pending',
      response: z.array(pendingTransactionRecordSchema),
      auth: 'none',
      summary: 'Transactions in the pending pool, newest first',
      query: z.object({ address: optionalAddressSchema, limit: positiveIntQuery(50, 100) }),
      handler: ({ query }) => services.pending.list({ address: query.address, limit: query.limit }).map(formatPending),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/list',
      errors: ['BLOCK_NOT_FOUND'],
      auth: 'none',
      cache: 'head',
      summary: "A block's transactions in block order (blockno), or the newest indexed transactions, newest first",
      query: z
        .object({ blockno: optionalBlockTagQuery, page: positiveIntQuery(1), offset: positiveIntQuery(25, 100) })
        .refine((query) => query.page * query.offset <= MAX_RESULT_WINDOW, { path: ['page'], message: `page × offset must be at most ${MAX_RESULT_WINDOW}` }),
      response: z.array(transactionRecordSchema),
      handler: async ({ query }) =>
        services.transactions.list({
          blockNumber: query.blockno === undefined ? undefined : await services.blocks.numberOf(query.blockno),
          page: query.page,
          offset: query.offset,
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/gettxinfo',
      response: transactionInfoRecordSchema,
      errors: ['TRANSACTION_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: 'A transaction with its outcome, revert reason and logs',
      query: z.object({ txhash: hashSchema }),
      handler: ({ query }) => services.transactions.info(query.txhash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/status/:hash',
      response: transactionStatusRecordSchema,
      errors: ['TRANSACTION_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: 'Lifecycle status of a transaction',
      params: hashParams,
      handler: ({ params }) => services.status.status(params.hash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash',
      errors: ['TRANSACTION_NOT_FOUND'],
      auth: 'none',
      cache: 'head',
      summary: 'A mined transaction',
      params: hashParams,
      response: transactionRecordSchema,
      handler: ({ params }) => services.transactions.get(params.hash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash/receipt',
      errors: ['TRANSACTION_NOT_FOUND'],
      auth: 'none',
      cache: 'head',
      summary: 'The receipt of a mined transaction',
      params: hashParams,
      response: receiptRecordSchema,
      handler: ({ params }) => services.transactions.receipt(params.hash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash/logs',
      response: z.union([z.array(logRecordSchema), z.array(decodedLogRecordSchema)]).describe('decoded records with decode=true'),
      errors: ['TRANSACTION_NOT_FOUND'],
      auth: 'none',
      summary: 'Logs of a transaction; decode=true decodes known events',
      params: hashParams,
      query: z.object({ decode: booleanQuery }),
      handler: ({ params, query }) => services.transactions.logs(params.hash, query.decode),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash/token-transfers',
      response: z.array(accountTokenTransferRecordSchema),
      errors: ['TRANSACTION_NOT_FOUND'],
      auth: 'none',
      cache: 'head',
      summary: 'The token transfers a transaction made, in log order, each with its token and standard',
      params: hashParams,
      handler: ({ params }) => services.tokens.transactionTransfers(params.hash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash/input',
      response: decodedInputRecordSchema,
      errors: ['TRANSACTION_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: "A transaction's input decoded as a function call: the callee's verified ABI first, then a table of common functions",
      params: hashParams,
      handler: ({ params }) => services.decoding.input(params.hash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash/calls',
      response: decodedCallFrameRecordSchema,
      errors: ['TRANSACTION_NOT_FOUND', 'TRACING_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: 'The call tree of a mined transaction, every call, result and custom error decoded where an ABI is known',
      params: hashParams,
      handler: ({ params }) => services.decoding.calls(params.hash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash/balance-changes',
      response: balanceChangesRecordSchema,
      errors: ['TRANSACTION_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: 'What a transaction moved per address: ether (null where the node does not trace) and tokens',
      params: hashParams,
      handler: ({ params }) => services.balanceChanges.balanceChanges(params.hash),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/transaction/:hash/envelope',
      response: transactionEnvelopeRecordSchema,
      errors: ['TRANSACTION_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: "A transaction's type and what it adds: EIP-7702 authorizations, EIP-4844 blobs",
      params: hashParams,
      handler: ({ params }) => services.envelopes.envelope(params.hash),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/transaction/:hash/trace',
      response: transactionTraceRecordSchema,
      errors: ['TRANSACTION_NOT_FOUND', 'TRACING_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE'],
      auth: 'user',
      summary: 'The call tree of a mined transaction, from the node tracer',
      params: hashParams,
      handler: ({ params }) => services.traces.trace(params.hash),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/transaction/batch',
      response: z.array(transactionRecordSchema.nullable()),
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
      response: z.object({ transactionHash: z.string() }),
      errors: ['EXECUTION_FAILED', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: 'Forward a signed raw transaction to the node',
      body: z.object({ signedTransaction: hexDataSchema.refine((v) => v.length > 2, 'must not be empty') }),
      handler: ({ body }) => services.submission.send(body.signedTransaction),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/transaction/estimate-gas',
      response: gasEstimateRecordSchema,
      errors: ['EXECUTION_FAILED', 'UPSTREAM_UNAVAILABLE'],
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

