import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import type { Services } from '../../services/index.js';
import { blockRecordSchema } from '../../services/record-schemas.js';
import { blockTagSchema } from '../schemas.js';

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
  ];
}
