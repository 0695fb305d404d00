import { documentationRoutes } from '../api/openapi/index.js';
import type { Principal } from '../auth/index.js';
import type { ResolvedConfig } from '../config.js';
import type { IndexedHead } from '../events/index.js';
import { createHttpKernel, ResponseCache, type HttpKernel, type HttpKernelOptions, type HttpRequest, type RequestOutcome } from '../http/index.js';
import { after } from '../http/maybe-async.js';
import { requestLog } from '../logging/index.js';
import type { ModuleHost } from '../modules/index.js';
import type { IndexerCursor } from '../storage/index.js';
import type { LabelsVersion } from './labels/index.js';
import { BlockLineage } from '../services/index.js';

/** What the kernel takes from the modules besides their routes and response observers. */
export interface KernelOptions {
  config: Pick<ResolvedConfig, 'http' | 'reads'>;
  authenticate: (request: HttpRequest) => Promise<Principal | null> | Principal | null;
  rateLimit: HttpKernelOptions['rateLimit'];
  /** The indexed head and the labels' version, which key the response cache. */
  head: IndexedHead;
  labelsVersion: LabelsVersion;
}

/** Built once: an arrow written in the cache's head function would be a new closure on every request. */
const hashOf = (cursor: IndexerCursor | null) => cursor?.hash ?? null;

/**
 * The HTTP kernel over everything the modules registered: their API routes, their pages, and
 * `/docs` with the OpenAPI document describing both; every answer goes to the request log and
 * then to the modules' observers.
 */
export function composeKernel(host: ModuleHost, { config, authenticate, rateLimit, head, labelsVersion }: KernelOptions): HttpKernel {
  const served = [...host.apiRoutes, ...host.pageRoutes];
  const observers = [requestLog(host.infrastructure.logger.child({ module: 'http' })), ...host.responseObservers];
  return createHttpKernel({
    routes: [...served, ...documentationRoutes(served)],
    logger: host.infrastructure.logger,
    bodyLimit: config.http.bodyLimit,
    bodyDrainLimit: config.http.bodyDrainLimit,
    authenticate,
    rateLimit,
    // A loop, not `forEach`: its callback would be a new closure on every request.
    onResponse:
      observers.length === 1
        ? observers[0]
        : (outcome: RequestOutcome) => {
            for (const observe of observers) observe(outcome);
          },
    responseCache:
      config.reads.responseCacheBytes > 0
        ? new ResponseCache(
            () => after(head.value(), hashOf),
            config.reads.responseCacheBytes,
            new BlockLineage(host.infrastructure.hub),
            () => after(labelsVersion.value(), String),
          )
        : undefined,
  });
}
