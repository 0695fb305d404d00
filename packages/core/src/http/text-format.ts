import { errorResponse } from './envelope.js';
import type { ResponseFormat } from './response-format.js';

/**
 * Answers a handler's string as it is, with `contentType` (pages, scripts, Prometheus text);
 * errors stay envelopes, so a client always learns why a request failed the same way.
 *
 * @example
 * ```ts
 * defineRoute({ method: 'GET', path: '/robots.txt', auth: 'none', summary: 'Robots', format: textFormat('text/plain'), handler: () => 'User-agent: *' });
 * ```
 */
export function textFormat(contentType: string): ResponseFormat {
  const headers = Object.freeze({ 'content-type': contentType });
  return {
    contentType,
    success: (result) => ({ status: 200, headers, body: String(result) }),
    error: errorResponse,
  };
}
