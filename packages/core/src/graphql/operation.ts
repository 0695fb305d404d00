import {
  getOperationAST,
  GraphQLError,
  Lexer,
  NoSchemaIntrospectionCustomRule,
  parse,
  Source,
  specifiedRules,
  TokenKind,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { maxCostRule, staticLimitRules, type DocumentLimits } from './limits.js';

/** What the limits and switches of the `graphql` config section say about documents. */
export interface DocumentPolicy extends DocumentLimits {
  maxTokens: number;
  maxCharacters: number;
  introspection: boolean;
  fieldSuggestions: boolean;
}

/** One GraphQL request: the GraphQL-over-HTTP parameters, as read from a body, a URL or a socket message. */
export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** A document parsed, validated and within limits, with the operation to run. */
export interface PreparedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

/**
 * Why a request runs nothing: its parameters (`request`: not a GraphQL request at all), or its
 * document (`document`: syntax, a limit, the schema's rules). GraphQL over HTTP answers the first
 * with 400 always, the second with 400 only to clients that accept `application/graphql-response+json`.
 */
export class RequestRefusal {
  constructor(
    readonly errors: readonly GraphQLError[],
    readonly kind: 'request' | 'document' = 'document',
  ) {}
}

function refuse(message: string, code: string, extensions: Record<string, unknown> = {}): RequestRefusal {
  return new RequestRefusal([new GraphQLError(message, { extensions: { code, ...extensions } })], code === 'BAD_REQUEST' ? 'request' : 'document');
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads the GraphQL-over-HTTP parameters from a JSON body entry or a URL's query (where
 * `variables` and `extensions` are JSON text); a malformed one is a refusal naming it.
 */
export function readRequest(input: unknown, fromUrl: boolean): GraphqlRequest | RequestRefusal {
  if (!isMap(input)) return refuse('A GraphQL request must be a JSON object with a query', 'BAD_REQUEST');
  const { query, operationName } = input;
  let { variables, extensions } = input;
  if (typeof query !== 'string' || query === '') return refuse('query must be a non-empty string', 'BAD_REQUEST');
  if (operationName != null && typeof operationName !== 'string') return refuse('operationName must be a string', 'BAD_REQUEST');
  if (fromUrl) {
    try {
      if (typeof variables === 'string') variables = JSON.parse(variables);
      if (typeof extensions === 'string') extensions = JSON.parse(extensions);
    } catch {
      return refuse('variables and extensions must be JSON objects', 'BAD_REQUEST');
    }
  }
  if (variables != null && !isMap(variables)) return refuse('variables must be an object', 'BAD_REQUEST');
  if (extensions != null && !isMap(extensions)) return refuse('extensions must be an object', 'BAD_REQUEST');
  return { query, variables: variables ?? null, operationName: operationName ?? null };
}

/** Characters of documents kept parsed and checked, by their text. */
const DOCUMENT_CACHE_CHARACTERS = 4_000_000;

/**
 * Parses and validates requests against the schema and every limit, and picks their operation;
 * nothing runs here, and a refusal runs nothing at all. A document's text is parsed and checked
 * once (clients send the same few documents with other variables); only the cost, which depends
 * on the variables, is checked on every request.
 */
export function createOperationPreparer(schema: GraphQLSchema, policy: DocumentPolicy): (request: GraphqlRequest) => PreparedOperation | RequestRefusal {
  const documents = new LRUCache<string, DocumentNode | RequestRefusal>({ maxSize: DOCUMENT_CACHE_CHARACTERS, sizeCalculation: (_, query) => Math.max(query.length, 1) });
  const staticRules: ValidationRule[] = [...specifiedRules, ...staticLimitRules(policy)];
  if (!policy.introspection) staticRules.push(NoSchemaIntrospectionCustomRule);
  const options = { hideSuggestions: !policy.fieldSuggestions };

  const check = (query: string): DocumentNode | RequestRefusal => {
    let document: DocumentNode;
    try {
      if (countTokens(query, policy.maxTokens) > policy.maxTokens) {
        return refuse(`Query has more than ${policy.maxTokens} tokens; the limit is ${policy.maxTokens}`, 'LIMIT_EXCEEDED', { limit: 'maxTokens' });
      }
      document = parse(query, { maxTokens: policy.maxTokens });
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      return new RequestRefusal([new GraphQLError(error.message, { source: error.source, positions: error.positions, extensions: { code: 'GRAPHQL_PARSE_FAILED' } })]);
    }
    const errors = validate(schema, document, staticRules, options);
    return errors.length > 0 ? new RequestRefusal(errors.map(withValidationCode)) : document;
  };

  return (request) => {
    if (request.query.length > policy.maxCharacters) {
      return refuse(`Query has ${request.query.length} characters; the limit is ${policy.maxCharacters}`, 'LIMIT_EXCEEDED', { limit: 'maxCharacters' });
    }
    let document = documents.get(request.query);
    if (document === undefined) {
      document = check(request.query);
      documents.set(request.query, document);
    }
    if (document instanceof RequestRefusal) return document;
    const costErrors = validate(schema, document, [maxCostRule(policy, request.variables)], options);
    if (costErrors.length > 0) return new RequestRefusal(costErrors);
    const operation = getOperationAST(document, request.operationName);
    if (!operation) {
      return refuse(request.operationName ? `Unknown operation named "${request.operationName}"` : 'operationName is required for a document of several operations', 'BAD_REQUEST');
    }
    return { document, operation };
  };
}

/** Lexical tokens of `query`, counting stops past `max`; throws the lexer's syntax error. */
function countTokens(query: string, max: number): number {
  const lexer = new Lexer(new Source(query));
  let count = 0;
  while (count <= max && lexer.advance().kind !== TokenKind.EOF) count++;
  return count;
}

/** Validation errors say so in `extensions.code`, unless a limit rule named its own. */
function withValidationCode(error: GraphQLError): GraphQLError {
  if (error.extensions['code'] !== undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: 'GRAPHQL_VALIDATION_FAILED' },
  });
}
