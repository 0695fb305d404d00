import type { FormattedExecutionResult } from 'graphql';
import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { defineRoute, textFormat, type HttpRequest, type Route } from '../http/index.js';
import type { GraphqlExecutor } from '../graphql/executor.js';
import { GRAPHIQL_ASSETS, GRAPHIQL_INIT_SCRIPT, GRAPHIQL_PAGE } from './graphiql-page.js';
import { answerType, GRAPHQL_RESPONSE_JSON, graphqlFormat, GraphqlHttpAnswer } from '../graphql/http-answer.js';
import { readRequest, RequestRefusal } from '../graphql/operation.js';
import { ASSET_TYPES, packageAssetRoutes } from './package-asset-routes.js';

type Outcome = { status: number; result: FormattedExecutionResult };

/**
 * GraphQL over HTTP at `/graphql`: `POST` a request (or an array of them: each counts against the
 * caller's rate limit), `GET ?query=` for queries, and `GET` from a browser for GraphiQL (its
 * files under `/graphql/`). The kernel authenticates and rate-limits as on REST; its refusals come
 * back as GraphQL errors.
 */
export function graphqlRoutes(executor: GraphqlExecutor): Route[] {
  const { maxBatch } = executor.policy;

  async function runOne(input: unknown, fromUrl: boolean, principal: Principal | null, strict: boolean): Promise<Outcome> {
    const request = readRequest(input, fromUrl);
    if (request instanceof RequestRefusal) return refused(request, strict);
    const prepared = executor.prepare(request, ['query']);
    if (prepared instanceof RequestRefusal) return refused(prepared, strict);
    return { status: 200, result: await executor.run(prepared, request, principal) };
  }

  /** GraphQL over HTTP: a document error is HTTP 200 to plain-JSON clients, 400 to those that accept its own media type. */
  function refused(refusal: RequestRefusal, strict: boolean): Outcome {
    return { status: refusal.kind === 'request' || strict ? 400 : 200, result: { errors: refusal.errors.map((error) => error.toJSON()) } };
  }

  function answer(request: HttpRequest, outcome: { status: number; body: unknown }): GraphqlHttpAnswer {
    const contentType = answerType(request.headers['accept']);
    return new GraphqlHttpAnswer(outcome.status, contentType, JSON.stringify(outcome.body));
  }

  const strictOf = (request: HttpRequest) => answerType(request.headers['accept']) === GRAPHQL_RESPONSE_JSON;

  return [
    defineRoute({
      method: 'POST',
      path: '/graphql',
      auth: 'none',
      summary: `GraphQL: a request {query, variables, operationName}, or an array of at most ${maxBatch} (each counts as a request)`,
      format: graphqlFormat,
      body: z.unknown(),
      // A batch refused whole runs nothing, so it counts once.
      weight: (body) => (Array.isArray(body) && body.length > 0 && body.length <= maxBatch ? body.length : 1),
      async handler({ body, request, principal }) {
        const strict = strictOf(request);
        // GraphQL over HTTP: a POST says its body is JSON (a body a framework parsed already was).
        if (request.rawBody !== undefined && !isJson(request.headers['content-type'])) {
          return answer(request, { status: 415, body: { errors: [{ message: 'Content-Type application/json is required', extensions: { code: 'BAD_REQUEST' } }] } });
        }
        if (!Array.isArray(body)) {
          const outcome = await runOne(body, false, principal, strict);
          return answer(request, { status: outcome.status, body: outcome.result });
        }
        if (body.length === 0 || body.length > maxBatch) {
          return answer(request, { status: 400, body: { errors: [{ message: `A batch holds 1 to ${maxBatch} operations; got ${body.length}`, extensions: { code: 'LIMIT_EXCEEDED', limit: 'maxBatch' } }] } });
        }
        const outcomes = await Promise.all(body.map((entry) => runOne(entry, false, principal, strict)));
        return answer(request, { status: 200, body: outcomes.map((outcome) => outcome.result) });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/graphql',
      auth: 'none',
      summary: 'GraphQL queries as URL parameters (query, variables, operationName); without a query, the GraphiQL page',
      format: graphqlFormat,
      query: z.object({ query: z.string().optional(), variables: z.string().optional(), operationName: z.string().optional(), extensions: z.string().optional() }),
      async handler({ query, request, principal }) {
        if (query.query === undefined && wantsHtml(request)) {
          return new GraphqlHttpAnswer(200, 'text/html; charset=utf-8', GRAPHIQL_PAGE, { 'cache-control': 'no-cache' });
        }
        const outcome = await runOne(query, true, principal, strictOf(request));
        return answer(request, { status: outcome.status, body: outcome.result });
      },
    }),
    defineRoute({ method: 'GET', path: '/graphql/init.js', auth: 'none', summary: "The GraphiQL page's start script", format: textFormat(ASSET_TYPES.javascript), handler: () => GRAPHIQL_INIT_SCRIPT }),
    ...packageAssetRoutes('/graphql', 'GraphiQL', GRAPHIQL_ASSETS),
  ];
}

/** A browser navigating here (it accepts HTML). */
function wantsHtml(request: HttpRequest): boolean {
  const accept = request.headers['accept'];
  return (Array.isArray(accept) ? accept.join(',') : (accept ?? '')).includes('text/html');
}

/** A `Content-Type` of `application/json` (any parameters). */
function isJson(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}
