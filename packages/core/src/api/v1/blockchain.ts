import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import type { Services } from '../../services/index.js';
import { blockNumberSchema, blockTagSchema } from '../schemas.js';

/** `/api/v1/blockchain/*`: chain-level records. */
export function blockchainRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/state-root/:blockNumber',
      auth: 'none',
      summary: 'State root of a block (number or latest)',
      params: z.object({ blockNumber: blockTagSchema }),
      handler: ({ params }) => services.consensus.stateRoot(params.blockNumber),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/validators',
      auth: 'none',
      summary: 'Validator set: the block producers of the newest indexed blocks, as the consensus source tells',
      handler: () => services.consensus.validatorSet(),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/consensus/info',
      auth: 'none',
      summary: 'Consensus state at the newest indexed block',
      handler: () => services.consensus.consensusInfo(),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/finality/:blockNumber',
      auth: 'none',
      summary: 'Finality of an indexed block',
      params: z.object({ blockNumber: blockNumberSchema }),
      handler: ({ params }) => services.consensus.finality(params.blockNumber),
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
