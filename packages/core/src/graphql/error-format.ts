import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import { ExplorerError, InternalError, toExplorerError } from '../errors/index.js';

/**
 * A GraphQL error as answered: ChainLens's own errors keep their envelope message with their
 * code in `extensions.code`; GraphQL's own (input coercion, non-null) stay as they are; anything
 * unexpected is masked as the internal error and logged, never its message or stack.
 */
export function formatGraphqlError(error: GraphQLError, logger: Logger): GraphQLFormattedError {
  const original = error.originalError;
  if (original === undefined || original instanceof GraphQLError) return error.toJSON();
  const explorerError = toExplorerError(original);
  if (explorerError instanceof InternalError) logger.error({ err: original, path: error.path }, 'unexpected error in a GraphQL resolver');
  return { message: explorerError.message, locations: error.locations, path: error.path, extensions: { code: explorerError.code } };
}

/** An error raised before any GraphQL runs (credentials, rate limit, body), as a GraphQL error. */
export function requestLevelError(error: ExplorerError): GraphQLFormattedError {
  return { message: error.message, extensions: { code: error.code } };
}
