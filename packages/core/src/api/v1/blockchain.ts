import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import type { Services } from '../../services/index.js';
import { blockTagSchema } from '../schemas.js';

/** `/api/v1/blockchain/*`: chain-level records. */
export function blockchainRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/state-root/:blockNumber',
      auth: 'none',
      summary: 'State root of a block (number or latest)',
      params: z.object({ blockNumber: blockTagSchema }),
      handler: ({ params }) => services.blocks.stateRoot(params.blockNumber),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/network/stats',
      auth: 'none',
      summary: 'Network statistics computed from indexed blocks',
      handler: () => services.networkStats.stats(),
    }),
  ];
}
