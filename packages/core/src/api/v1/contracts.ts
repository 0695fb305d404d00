import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import type { Services } from '../../services/index.js';
import { addressSchema } from '../schemas.js';

const contractParams = z.object({ address: addressSchema });

/** `/api/v1/contract/*`: contracts. */
export function contractRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/contract/:address',
      auth: 'none',
      cache: 'head',
      summary: 'A contract: its creation, balance, transaction count, and whether it is a token or a proxy (and of what)',
      params: contractParams,
      handler: ({ params }) => services.contracts.contract(params.address),
    }),
  ];
}
