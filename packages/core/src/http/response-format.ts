import type { ExplorerError } from '../errors/index.js';
import { errorResponse, successResponse } from './envelope.js';
import { RouteResult } from './route.js';
import type { TextResponse } from './types.js';

/**
 * How a route writes its answers: the handler's result, and every error raised while serving it
 * (credentials, rate limits, input, handler). The default is {@link envelopeFormat}; a route that
 * speaks another protocol's shape (Etherscan's HTTP-200 errors) brings its own.
 */
export interface ResponseFormat {
  /** Content type of successful answers, for the API description; default JSON. */
  readonly contentType?: string;
  success(result: unknown): TextResponse;
  error(error: ExplorerError): TextResponse;
}

/**
 * The envelope with decisions.md's HTTP status codes; a handler may answer a {@link RouteResult}
 * for another message or status.
 */
export const envelopeFormat: ResponseFormat = {
  success: (result) => (result instanceof RouteResult ? successResponse(result.result, result.message, result.status) : successResponse(result)),
  error: errorResponse,
};
