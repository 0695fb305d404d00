import { etherscanRoutes } from '../api/etherscan/index.js';
import { jsonRpcRoutes } from '../api/json-rpc/index.js';
import { v1Routes } from '../api/v1/index.js';
import type { ResolvedConfig } from '../config.js';
import type { ExplorerModule } from '../modules/index.js';
import type { Services } from '../explorer-services.js';

/** REST v1, the Etherscan-compatible API and JSON-RPC, all answering through the services. */
export const apiModule: ExplorerModule<{ config: Pick<ResolvedConfig, 'exports' | 'rpc'>; services: Services }, void> = {
  name: 'api',
  register(app, { config, services }) {
    app.route(
      ...v1Routes(services, { exports: config.exports }),
      ...etherscanRoutes(services, app.chain),
      ...jsonRpcRoutes(services, app.chain, { maxBatch: config.rpc.maxBatch, logger: app.logger.child({ module: 'json-rpc' }) }),
    );
  },
};
