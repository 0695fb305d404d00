import { z } from 'zod';
import { nftRecordSchema } from '../../records/nft-record-schemas.js';
import { defineRoute, type Route } from '../../http/index.js';
import { addressParams, optionalBooleanQuery, positiveIntQuery, uintStringSchema } from '../../http/request-schemas.js';
import { optionalAddressSchema } from '../../values/hex.js';
import { optionalBlockTagQuery } from '../../values/block-tag.js';
import { tokenScope } from '../../services/block-lineage.js';
import type { Services } from '../../explorer-services.js';
import { JsonArrayText } from '../../records/json-array-text.js';
import {
  tokenAnalyticsRecordSchema,
  tokenHoldersRecordSchema,
  tokenListItemSchema,
  tokenRecordSchema,
  tokenTransferRecordSchema,
} from '../../records/record-schemas.js';

/** `/api/v1/token/*`: a token, its holders and its transfers. */
export function tokenRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/token/list',
      response: z.array(tokenListItemSchema),
      auth: 'none',
      summary: 'Tokens by market cap, volume or holders (priced tokens first for the first two)',
      query: z.object({
        verified: optionalBooleanQuery,
        sort: z.enum(['marketCap', 'volume', 'holders'], { message: "must be 'marketCap', 'volume' or 'holders'" }).optional().default('marketCap'),
        limit: positiveIntQuery(100, 1_000),
      }),
      handler: ({ query }) => services.tokens.list(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/token/:address/analytics',
      response: tokenAnalyticsRecordSchema,
      errors: ['TOKEN_NOT_FOUND'],
      auth: 'none',
      summary: 'Price, volume, liquidity and holder analytics of a token (prices need a configured price source)',
      params: addressParams,
      handler: ({ params }) => services.tokens.analytics(params.address),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/token/:address',
      response: tokenRecordSchema,
      errors: ['TOKEN_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: 'A token: metadata and supply from the chain, holder and transfer counts from indexed transfers',
      params: addressParams,
      handler: ({ params }) => services.tokens.token(params.address),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/token/:address/inventory',
      response: z.array(nftRecordSchema),
      errors: ['TOKEN_NOT_FOUND', 'QUERY_TOO_LARGE'],
      auth: 'none',
      cache: 'head',
      summary: "An NFT collection's tokens (ERC-721 ids, ERC-1155 ids per holder) and who holds them, from indexed transfers, by id, with their token URI and on-chain metadata",
      params: addressParams,
      query: z.object({ page: positiveIntQuery(1), offset: positiveIntQuery(50, 100) }),
      handler: ({ params, query }) => services.nfts.ofCollection({ token: params.address, page: query.page, offset: query.offset }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/token/:address/holders',
      response: tokenHoldersRecordSchema,
      errors: ['TOKEN_NOT_FOUND'],
      auth: 'none',
      cache: 'head',
      summary: 'Holders by balance, largest first, with their share of the total supply',
      params: addressParams,
      query: z.object({
        page: positiveIntQuery(1),
        offset: positiveIntQuery(50, 100),
        minBalance: uintStringSchema.optional(),
      }),
      handler: ({ params, query }) => services.tokens.holders(params.address, query),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/token/:address/transfers',
      response: z.array(tokenTransferRecordSchema),
      errors: ['TOKEN_NOT_FOUND', 'BLOCK_NOT_FOUND'],
      auth: 'none',
      cache: 'head',
      // Token names and decimals are read once per token, so only the token's transfers move the
      // page, unless its range starts at the moving head.
      cacheScopes: (params, query) => (query.startblock === 'latest' ? undefined : [tokenScope(params.address ?? '')]),
      // Later transfers come after every transfer a full oldest-first page shows, unless its range
      // starts at the moving head.
      appendOnlyPage: (query, result) => query.sort === 'asc' && query.startblock !== 'latest' && (Array.isArray(result) || result instanceof JsonArrayText) && result.length === query.offset,
      summary: 'Transfers of a token, newest first unless sort=asc',
      params: addressParams,
      query: z.object({
        page: positiveIntQuery(1),
        offset: positiveIntQuery(50, 100),
        from: optionalAddressSchema,
        to: optionalAddressSchema,
        startblock: optionalBlockTagQuery,
        endblock: optionalBlockTagQuery,
        sort: z.enum(['asc', 'desc'], { message: "must be 'asc' or 'desc'" }).optional().default('desc'),
      }),
      handler: async ({ params, query }) =>
        services.tokens.transfersPage({
          token: params.address,
          from: query.from,
          to: query.to,
          ...(await services.blocks.bounds({ start: query.startblock, end: query.endblock })),
          page: query.page,
          offset: query.offset,
          sort: query.sort,
        }),
    }),
  ];
}
