import type { Logger } from 'pino';
import { z } from 'zod';
import type { ChainClient } from '../../chain/chain-client.js';
import { defineRoute, type Route } from '../../http/index.js';
import type { Services } from '../../explorer-services.js';
import { createJsonRpcDispatcher } from './dispatcher.js';
import { jsonRpcFormat } from './json-rpc-format.js';
import { jsonRpcMethods } from './methods.js';

/** Options of {@link jsonRpcRoutes}. */
export interface JsonRpcRoutesOptions {
  /** Most requests in one batch (`rpc.maxBatch`). */
  maxBatch: number;
  logger: Logger;
}

/**
 * JSON-RPC 2.0 at `POST {base_url}/`: the `chain_*` methods, the node's allowlisted reads and
 * `eth_sendRawTransaction`. Public like REST's reads, with the same credentials and rate limits:
 * each entry of a batch counts as one request (a batch over the allowance is refused whole).
 */
export function jsonRpcRoutes(services: Services, chain: ChainClient, options: JsonRpcRoutesOptions): Route[] {
  const { maxBatch, logger } = options;
  const dispatcher = createJsonRpcDispatcher({ methods: jsonRpcMethods(services, chain), maxBatch, logger });
  return [
    defineRoute({
      method: 'POST',
      path: '/',
      auth: 'none',
      summary: "JSON-RPC 2.0: the chain_* methods (the spec's three and ChainLens's records of accounts, tokens and transactions) and read-only eth_* methods of the node",
      format: jsonRpcFormat,
      body: z.unknown(),
      // A batch the dispatcher refuses whole runs nothing, so it counts once.
      weight: (body) => (Array.isArray(body) && body.length > 0 && body.length <= maxBatch ? body.length : 1),
      handler: ({ body }) => dispatcher.dispatch(body),
    }),
  ];
}
