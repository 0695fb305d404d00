import { z } from 'zod';
import { nftRecordSchema } from '../../records/nft-record-schemas.js';
import { defineRoute, type Route } from '../../http/index.js';
import { addressSchema } from '../../values/hex.js';
import { optionalBlockTagQuery } from '../../values/block-tag.js';
import { positiveIntQuery } from '../../http/request-schemas.js';
import type { Services } from '../../explorer-services.js';
import { delegationRecordSchema } from '../../records/transaction-insight-schemas.js';
import { accountSummaryRecordSchema, accountTokenTransferRecordSchema, balanceRecordSchema, tokenHoldingRecordSchema, transactionRecordSchema } from '../../records/record-schemas.js';

/** An address's list in Etherscan's terms: inclusive block range, page, offset (at most `maxOffset`), sort (default `sort`). */
const addressListQuery = (maxOffset: number, sort: 'asc' | 'desc') =>
  z.object({
    address: addressSchema,
    startblock: optionalBlockTagQuery,
    endblock: optionalBlockTagQuery,
    page: positiveIntQuery(1),
    offset: positiveIntQuery(50, maxOffset),
    sort: z.enum(['asc', 'desc'], { message: "must be 'asc' or 'desc'" }).optional().default(sort),
  });

/** {@link addressListQuery}'s parameters as the services name them, `latest` read as the indexed head. */
const addressList = async (services: Services, { startblock, endblock, ...rest }: z.output<ReturnType<typeof addressListQuery>>) => ({
  ...rest,
  ...(await services.blocks.bounds({ start: startblock, end: endblock })),
});

/** `/api/v1/account/*`: balances, transaction and token transfer lists (Etherscan-style parameters) and summaries. */
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
      path: '/api/v1/account/delegation',
      response: delegationRecordSchema,
      errors: ['UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      cache: 'head',
      summary: 'The contract an account delegates its code to (EIP-7702) at the newest indexed block, null when none',
      query: z.object({ address: addressSchema }),
      handler: ({ query }) => services.delegations.delegation(query.address),
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
      query: addressListQuery(1000, 'asc'),
      errors: ['BLOCK_NOT_FOUND'],
      handler: async ({ query }) => services.accounts.transactions(await addressList(services, query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/token-transfers',
      auth: 'none',
      cache: 'head',
      summary: 'Token transfers (every standard) from or to an address, each with its token, standard and transaction; newest first unless sort=asc',
      response: z.array(accountTokenTransferRecordSchema),
      query: addressListQuery(100, 'desc'),
      errors: ['BLOCK_NOT_FOUND'],
      handler: async ({ query }) => services.tokens.accountTransfers(await addressList(services, query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/tokens',
      auth: 'none',
      cache: 'head',
      summary: 'Tokens an address holds (a positive balance from indexed transfers), by token address',
      response: z.array(tokenHoldingRecordSchema),
      query: z.object({ address: addressSchema, page: positiveIntQuery(1), offset: positiveIntQuery(50, 100) }),
      handler: ({ query }) => services.tokens.holdings(query.address, query.page, query.offset),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/nfts',
      auth: 'none',
      cache: 'head',
      errors: ['QUERY_TOO_LARGE'],
      summary: 'The NFTs (ERC-721 tokens, ERC-1155 ids) an address holds, from indexed transfers, by token then id, with their token URI and on-chain metadata',
      response: z.array(nftRecordSchema),
      query: z.object({ address: addressSchema, page: positiveIntQuery(1), offset: positiveIntQuery(50, 100) }),
      handler: ({ query }) => services.nfts.ofOwner({ owner: query.address, page: query.page, offset: query.offset }),
    }),
  ];
}
