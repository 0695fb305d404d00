import { ExplorerError } from '../../errors/index.js';
import { defineRoute, type Route } from '../../http/index.js';
import type { Services } from '../../explorer-services.js';
import { healthRecordSchema } from '../../records/record-schemas.js';

/** `GET /api/v1/health`: 200 while storage answers, 503 with the same record when it does not. */
export function healthRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/health',
      errors: ['SERVICE_DOWN'],
      auth: 'none',
      summary: 'Service health: node, storage and indexer lag',
      response: healthRecordSchema,
      handler: async () => {
        const health = await services.health.check();
        if (health.status === 'down') throw new ExplorerError('SERVICE_DOWN', { result: health });
        return health;
      },
    }),
  ];
}
