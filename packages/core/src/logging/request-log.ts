import type { Logger } from 'pino';
import type { RequestOutcome } from '../http/kernel.js';

/**
 * Writes one `info` line per answered request: request id, method, route pattern (the path for
 * unknown routes), status and duration. Never headers, query strings or bodies, where
 * credentials travel.
 *
 * @example
 * ```ts
 * const kernel = createHttpKernel({ routes, logger, bodyLimit, onResponse: requestLog(logger) });
 * ```
 */
export function requestLog(logger: Logger): (outcome: RequestOutcome) => void {
  return ({ request, route, requestId, status, durationMs }) => {
    // Below the logger's level the line is not built (an object and a rounding on every request).
    if (!logger.isLevelEnabled('info')) return;
    logger.info(
      { reqId: requestId, method: request.method, route: route?.path ?? null, status, durationMs: Math.round(durationMs * 100) / 100 },
      'request answered',
    );
  };
}
