import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import { blockTagSchema } from '../../values/block-tag.js';
import { positiveIntQuery } from '../../http/request-schemas.js';
import type { Services } from '../../explorer-services.js';
import { blockRecordSchema } from '../../records/record-schemas.js';

/** `/api/v1/block/*`. */
export function blockRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/block/getblock',
      errors: ['BLOCK_NOT_FOUND'],
      auth: 'none',
      cache: 'head',
      summary: 'A block by number or latest',
      query: z.object({ blockno: blockTagSchema }),
      response: blockRecordSchema,
      handler: ({ query }) => services.blocks.getBlock(query.blockno),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/block/list',
      auth: 'none',
      cache: 'head',
      summary: 'Indexed blocks, newest first',
      query: z.object({ page: positiveIntQuery(1), offset: positiveIntQuery(25, 100) }),
      response: z.array(blockRecordSchema),
      handler: ({ query }) => services.blocks.list(query.page, query.offset),
    }),
  ];
}
