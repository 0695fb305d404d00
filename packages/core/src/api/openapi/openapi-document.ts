import type { Route } from '../../http/index.js';
import type { JsonSchema } from './json-schema.js';
import { REFERENCE_NOTES } from './reference-notes.js';
import { openApiPath, routeOperation } from './route-operation.js';

/** An OpenAPI 3.1 document as plain data. */
export type OpenApiDocument = JsonSchema & { openapi: '3.1.0'; paths: Record<string, Record<string, JsonSchema>> };

/**
 * The OpenAPI 3.1 description of `routes`, generated from the route table itself (paths, auth,
 * input schemas, result schemas, errors), so it cannot drift from what the server does.
 *
 * @example
 * ```ts
 * writeFileSync('openapi.json', JSON.stringify(createOpenApiDocument(explorer.kernel.routes), null, 2));
 * ```
 */
export function createOpenApiDocument(routes: readonly Route[]): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const usedIds = new Set<string>();
  for (const route of routes) {
    const path = openApiPath(route.path);
    const operationId = uniqueId(`${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`, usedIds);
    (paths[path] ??= {})[route.method.toLowerCase()] = routeOperation(route, operationId);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ChainLens API',
      version: '1',
      description: `A blockchain explorer for one EVM chain. REST answers share one envelope \`{status, message, result}\` (\`status\` is \`"1"\` on success, \`"0"\` on error); the Etherscan-compatible API and JSON-RPC speak their own shapes.\n${REFERENCE_NOTES}`,
    },
    // Relative to this document (`{mount}/api/v1/openapi.json`): wherever ChainLens is mounted.
    servers: [{ url: '../..', description: 'This server' }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /api/v1/auth/login' },
        apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key from POST /api/v1/auth/api-keys' },
      },
      schemas: {
        Envelope: {
          type: 'object',
          required: ['status', 'message', 'result'],
          properties: { status: { enum: ['1', '0'] }, message: { type: 'string' }, result: {} },
        },
      },
    },
  };
}

function uniqueId(id: string, used: Set<string>): string {
  let unique = id;
  for (let n = 2; used.has(unique); n++) unique = `${id}${n}`;
  used.add(unique);
  return unique;
}
