import type { ExplorerError } from '../errors/index.js';
import type { TextResponse, ResponseFormat } from '../http/index.js';
import { requestLevelError } from './error-format.js';

/** `application/graphql-response+json`, the GraphQL-over-HTTP media type. */
export const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** What the GraphQL route's handler answers: a status, a media type and a body already decided. */
export class GraphqlHttpAnswer {
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly body: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/**
 * How `/graphql` answers: the handler's {@link GraphqlHttpAnswer} as it is, and errors the
 * kernel raises before it (401, 413, 429, malformed JSON) as a GraphQL response with the same
 * HTTP status and the envelope's message, its code in `extensions.code`.
 */
export const graphqlFormat: ResponseFormat = {
  success(answer): TextResponse {
    if (!(answer instanceof GraphqlHttpAnswer)) throw new TypeError('the GraphQL route answers a GraphqlHttpAnswer');
    return { status: answer.status, headers: { 'content-type': answer.contentType, ...answer.headers }, body: answer.body };
  },
  error: (error: ExplorerError): TextResponse => ({
    status: error.httpStatus,
    headers: { 'content-type': JSON_TYPE },
    body: JSON.stringify({ errors: [requestLevelError(error)] }),
  }),
};

/** The media type to answer in: the first of the two the `Accept` header lists (JSON when it lists neither, as GraphQL over HTTP allows). */
export function answerType(accept: string | string[] | undefined): string {
  const value = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  for (const part of value.split(',')) {
    const type = part.split(';')[0]!.trim().toLowerCase();
    if (type === 'application/graphql-response+json') return GRAPHQL_RESPONSE_JSON;
    if (type === 'application/json' || type === 'application/*' || type === '*/*') return JSON_TYPE;
  }
  return JSON_TYPE;
}
