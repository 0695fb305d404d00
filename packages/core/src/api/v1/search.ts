import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import { positiveIntQuery, textSchema } from '../../http/request-schemas.js';
import type { Services } from '../../explorer-services.js';
import { searchMatchSchema } from '../../records/record-schemas.js';
import { SEARCH_LIMITS } from '../../services/search-service.js';

/** `/api/v1/search`: the search box. */
export function searchRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/search',
      response: z.array(searchMatchSchema),
      auth: 'none',
      summary: "What a block number, block or transaction hash, address, or the start of a token's name or symbol or of an address's public label names, best first",
      query: z.object({
        q: textSchema(SEARCH_LIMITS.maxLength, { min: 1 }),
        limit: positiveIntQuery(SEARCH_LIMITS.defaultLimit, SEARCH_LIMITS.maxLimit),
      }),
      handler: ({ query }) => services.search.search(query.q, query.limit),
    }),
  ];
}
