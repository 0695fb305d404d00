import { BaseError, HttpRequestError, RpcRequestError, TimeoutError } from 'viem';

/**
 * Why the node could not be used, in words a client may read: the cause of an
 * `UpstreamUnavailableError`, without the node's URL (it may carry a provider's key).
 */
export function describeUpstreamFailure(cause: unknown): string {
  if (!(cause instanceof BaseError)) return 'the node could not be reached';
  if (cause.walk((e) => e instanceof TimeoutError)) return 'the node did not answer within the upstream timeout';
  const http = cause.walk((e) => (e instanceof HttpRequestError || e instanceof RpcRequestError) && e.status !== undefined) as
    | HttpRequestError
    | RpcRequestError
    | null;
  if (http) return `the node answered HTTP ${http.status}${http.status === 429 ? ' (rate limited)' : ''}`;
  if (cause.walk((e) => e instanceof SyntaxError)) return 'the node answered malformed JSON';
  return 'the node could not be reached';
}
