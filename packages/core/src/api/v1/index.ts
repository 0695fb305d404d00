import type { Route } from '../../http/index.js';
import type { Services } from '../../explorer-services.js';
import { accountRoutes } from './account.js';
import { blockRoutes } from './block.js';
import { blockchainRoutes } from './blockchain.js';
import { contractRoutes } from './contracts.js';
import { exportRoutes, type ExportRoutesOptions } from './exports.js';
import { healthRoutes } from './health.js';
import { searchRoutes } from './search.js';
import { statsRoutes } from './stats.js';
import { tokenRoutes } from './tokens.js';
import { transactionRoutes } from './transactions.js';

/** Every `/api/v1` route. */
export function v1Routes(services: Services, options: { exports: ExportRoutesOptions }): Route[] {
  return [
    ...healthRoutes(services),
    ...blockchainRoutes(services),
    ...transactionRoutes(services),
    ...accountRoutes(services),
    ...blockRoutes(services),
    ...tokenRoutes(services),
    ...contractRoutes(services),
    ...searchRoutes(services),
    ...statsRoutes(services),
    ...exportRoutes(services, options.exports),
  ];
}
