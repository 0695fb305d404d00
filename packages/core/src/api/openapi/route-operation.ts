import { z } from 'zod';
import { ERROR_TABLE } from '../../errors/index.js';
import { isEtherscanPath } from '../etherscan/index.js';
import type { Route } from '../../http/index.js';
import { answersEnvelopeErrors, errorsByStatus, routeErrorCodes } from './error-responses.js';
import { acceptsUndefined, toJsonSchema, type JsonSchema } from './json-schema.js';

/** `/api/v1/block/:number` → `/api/v1/block/{number}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** The group a route is listed under on the docs page. */
export function routeTag(route: Route): string {
  if (route.path === '/') return 'JSON-RPC';
  if (route.path === '/graphql') return 'GraphQL';
  if (isEtherscanPath(route.path)) return 'Etherscan-compatible API';
  const versioned = /^\/api\/(v\d+)\/([^/]+)/.exec(route.path);
  if (versioned && versioned[2] !== 'openapi.json') return versioned[1] === 'v1' ? versioned[2]! : `${versioned[1]} ${versioned[2]}`;
  return 'Operations';
}

const ENVELOPE_REF = { $ref: '#/components/schemas/Envelope' };

/** The OpenAPI operation object of one route. */
export function routeOperation(route: Route, operationId: string): JsonSchema {
  const operation: JsonSchema = {
    operationId,
    summary: route.summary,
    tags: [routeTag(route)],
    security: security(route),
    responses: responses(route),
  };
  const parameters = [...pathParameters(route), ...queryParameters(route)];
  if (parameters.length > 0) operation.parameters = parameters;
  if (route.body) operation.requestBody = requestBody(route, route.body);
  if (route.scope) operation.description = `Requires the \`${route.scope}\` scope.`;
  return operation;
}

function security(route: Route): JsonSchema[] {
  const credentials = route.auth === 'jwt' ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, { apiKeyAuth: [] }];
  // A public route serves anonymous callers and, with their own allowance, authenticated ones.
  return route.auth === 'none' ? [{}, ...credentials] : credentials;
}

function pathParameters(route: Route): JsonSchema[] {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const properties = (route.params ? toJsonSchema(route.params, 'input').properties : undefined) as Record<string, JsonSchema> | undefined;
  return names.map((name) => ({ name, in: 'path', required: true, schema: properties?.[name] ?? { type: 'string' } }));
}

function queryParameters(route: Route): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  if (route.query instanceof z.ZodObject) {
    const shape = route.query.shape as Record<string, z.ZodType>;
    for (const [name, field] of Object.entries(shape)) {
      parameters.push({ name, in: 'query', required: !acceptsUndefined(field), schema: toJsonSchema(field, 'input') });
    }
  } else if (route.query) {
    // A free-form query (the Etherscan API's module, action and their parameters).
    parameters.push({ name: 'parameters', in: 'query', style: 'form', explode: true, schema: toJsonSchema(route.query, 'input') });
  }
  if (route.apiKeyParam !== undefined && !parameters.some((parameter) => parameter.name === route.apiKeyParam)) {
    parameters.push({ name: route.apiKeyParam, in: 'query', required: false, description: 'An API key, like the X-API-Key header', schema: { type: 'string' } });
  }
  return parameters;
}

function requestBody(route: Route, body: z.ZodType): JsonSchema {
  const schema = toJsonSchema(body, 'input');
  const content: JsonSchema = { 'application/json': { schema } };
  if (route.formBody) content['application/x-www-form-urlencoded'] = { schema };
  return { required: !acceptsUndefined(body), content };
}

function responses(route: Route): JsonSchema {
  const result = route.response ? toJsonSchema(route.response, 'output') : {};
  const answers: JsonSchema = {};
  const contentType = route.format?.contentType;
  if (contentType !== undefined) {
    answers['200'] = { description: 'OK', content: { [contentType.split(';')[0]!.trim()]: { schema: { type: 'string' } } } };
  } else if (route.format) {
    // Another protocol's shape (JSON-RPC, Etherscan): its answers and errors are all HTTP 200 JSON.
    answers['200'] = { description: 'OK, or an error in the protocol\'s own shape', content: { 'application/json': { schema: result } } };
  } else {
    const envelope = { allOf: [ENVELOPE_REF, { properties: { status: { const: '1' }, result } }] };
    answers['200'] = { description: 'OK', content: { 'application/json': { schema: envelope } } };
  }
  if (!answersEnvelopeErrors(route)) return answers;
  for (const [status, errors] of errorsByStatus(routeErrorCodes(route))) {
    // Examples, not an enum: `Invalid request` carries the field and the reason after it.
    const schema = { allOf: [ENVELOPE_REF, { properties: { status: { const: '0' }, message: { type: 'string', examples: errors.map((error) => error.message) } } }] };
    answers[String(status)] = {
      description: errors.map((error) => `\`${error.code}\`: ${ERROR_TABLE[error.code].message}`).join('; '),
      content: { 'application/json': { schema } },
    };
  }
  return answers;
}
