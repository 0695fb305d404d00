import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import { blockTagSchema } from '../../values/block-tag.js';
import type { Services } from '../../explorer-services.js';
import {
  consensusInfoRecordSchema,
  finalityStatusRecordSchema,
  networkStatsRecordSchema,
  stateRootRecordSchema,
  validatorSetRecordSchema,
} from '../../records/record-schemas.js';

/** `/api/v1/blockchain/*`: chain-level records. */
export function blockchainRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/state-root/:blockNumber',
      response: stateRootRecordSchema,
      errors: ['BLOCK_NOT_FOUND'],
      auth: 'none',
      summary: 'State root of a block (number or latest)',
      params: z.object({ blockNumber: blockTagSchema }),
      handler: ({ params }) => services.consensus.stateRoot(params.blockNumber),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/validators',
      response: validatorSetRecordSchema,
      auth: 'none',
      summary: 'Validator set: the block producers of the newest indexed blocks, as the consensus source tells',
      handler: () => services.consensus.validatorSet(),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/consensus/info',
      response: consensusInfoRecordSchema,
      auth: 'none',
      summary: 'Consensus state at the newest indexed block',
      handler: () => services.consensus.consensusInfo(),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/finality/:blockNumber',
      response: finalityStatusRecordSchema,
      errors: ['BLOCK_NOT_FOUND'],
      auth: 'none',
      summary: 'Finality of an indexed block (number or latest)',
      params: z.object({ blockNumber: blockTagSchema }),
      handler: ({ params }) => services.consensus.finality(params.blockNumber),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/blockchain/network/stats',
      response: networkStatsRecordSchema,
      errors: ['UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: 'Network statistics computed from indexed blocks',
      handler: () => services.networkStats.stats(),
    }),
  ];
}
