import fc from 'fast-check';
import { buildClientSchema, getIntrospectionQuery, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { expect, it } from 'vitest';
import { graphqlDocuments, type GeneratedDocument, type GraphqlFuzzLimits, type KnownValues } from './graphql-documents.js';
import { graphqlAnswerProblem } from './graphql-verdicts.js';
import { describeErrors, type SocketFuzzContext } from './socket-context.js';
import { FUZZ_TEST_TIMEOUT_MS, fuzzSeed, reportFailures } from './seed.js';
import { sendAll, type SentRequest } from './send.js';
import { hostileJson, hostileText } from './values.js';
import type { RawAnswer } from './verdicts.js';

/** Options of {@link graphqlHttpFuzzTests}. */
export interface GraphqlHttpFuzzOptions {
  /** Generated requests (default 3,000). */
  requests: number;
  concurrency: number;
}

/** A request to `/graphql`, and what its answer must be. */
interface GraphqlCase extends SentRequest {
  /** Entries of a batch answered one by one. */
  batch?: number;
  /** Per entry: the limit its document breaks. */
  broke?: (string | undefined)[];
}

/** Requests generated at once (see the test). */
const CHUNK = 200;

const JSON_ACCEPTS = ['application/json', 'application/graphql-response+json', '*/*', 'application/graphql-response+json, application/json;q=0.9', 'text/plain'];

function body(document: GeneratedDocument): Record<string, unknown> {
  return Object.fromEntries(Object.entries({ query: document.query, variables: document.variables, operationName: document.operationName }).filter(([, value]) => value !== undefined));
}

/** POST single and batched, bodies that are not JSON or not requests, wrong media types, GET with documents and junk query strings. */
function cases(documents: fc.Arbitrary<GeneratedDocument>, maxBatch: number): fc.Arbitrary<GraphqlCase> {
  const accept = fc.constantFrom(...JSON_ACCEPTS);
  const post = (text: string, headers: Record<string, string>): SentRequest => ({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, body: text });
  const single = fc.tuple(documents, accept).map(([document, type]): GraphqlCase => ({ ...post(JSON.stringify(body(document)), { accept: type }), broke: [document.breaks] }));
  const entry = fc.oneof({ weight: 4, arbitrary: documents.map((document) => ({ sent: body(document) as unknown, broke: document.breaks as string | undefined })) }, { weight: 1, arbitrary: hostileJson.map((sent) => ({ sent, broke: undefined })) });
  const batch = fc.array(entry, { minLength: 0, maxLength: maxBatch + 3 }).map((entries): GraphqlCase => {
    const answeredOneByOne = entries.length > 0 && entries.length <= maxBatch;
    return { ...post(JSON.stringify(entries.map((e) => e.sent)), {}), ...(answeredOneByOne && { batch: entries.length, broke: entries.map((e) => e.broke) }) };
  });
  const malformed = fc.oneof(
    fc.constantFrom('{', '{"query":', '[', 'null', '"query"', '', '{"query": "{ __typename }",}', '\u0000', '[[[[[[[[[[').map((text) => post(text, {})),
    hostileJson.map((value): GraphqlCase => ({ ...post(JSON.stringify(value) ?? 'null', {}), ...(Array.isArray(value) && value.length > 0 && value.length <= maxBatch && { batch: value.length }) })),
    fc.constantFrom('text/plain', 'application/graphql', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '').map((type) => post('{"query":"{ __typename }"}', { 'content-type': type })),
  );
  const get = fc.oneof(
    fc.tuple(documents, accept).map(([document, type]): GraphqlCase => {
      const params = new URLSearchParams({ query: document.query });
      if (document.variables !== undefined) params.set('variables', JSON.stringify(document.variables));
      if (typeof document.operationName === 'string') params.set('operationName', document.operationName);
      return { method: 'GET', url: `/graphql?${params}`, headers: { accept: type }, broke: [document.breaks] };
    }),
    fc.tuple(hostileText, hostileText).map(([query, variables]): GraphqlCase => ({ method: 'GET', url: `/graphql?query=${encodeURIComponent(query.replace(/[\ud800-\udfff]/g, '?'))}&variables=${encodeURIComponent(variables.replace(/[\ud800-\udfff]/g, '?'))}`, headers: { accept: 'application/json' } })),
    fc.constantFrom('?', '?query', '?query=&query=x', '?query[]=1', '?variables={', '?query=%7B__typename%7D&variables=%5B%5D', '?query=%7B__typename%7D&extensions=nope').map((query): GraphqlCase => ({ method: 'GET', url: `/graphql${query}`, headers: { accept: 'application/json' } })),
  );
  return fc.oneof({ weight: 8, arbitrary: single }, { weight: 3, arbitrary: batch }, { weight: 2, arbitrary: malformed }, { weight: 3, arbitrary: get });
}

/** The schema as the server introspects it. */
export async function introspect(url: string): Promise<GraphQLSchema> {
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: getIntrospectionQuery() }) });
  return buildClientSchema(((await response.json()) as { data: IntrospectionQuery }).data);
}

/** Generated GraphQL over HTTP: every answer a GraphQL result, never a 5xx, limits refused before anything runs. */
export function graphqlHttpFuzzTests(ctx: () => SocketFuzzContext, options: GraphqlHttpFuzzOptions): void {
  it(`answers ${options.requests} generated GraphQL requests (schema-driven documents, limit bombs, fragment cycles, junk bodies, batches, GET) with GraphQL results, never a 5xx`, async () => {
    const context = ctx();
    const seed = fuzzSeed();
    const schema = await introspect(context.url);
    const { graphql } = context.explorer.config;
    const limits: GraphqlFuzzLimits = { maxDepth: graphql.maxDepth, maxAliases: graphql.maxAliases, maxDirectives: graphql.maxDirectives, maxFirst: graphql.maxFirst };
    const known: KnownValues = { addresses: [...context.demo.accounts.slice(0, 3), context.demo.contracts.token, context.demo.contracts.nft], hashes: [context.demo.transactions.transfer] };
    const arbitrary = cases(graphqlDocuments(schema, known, limits), graphql.maxBatch);
    const requests: GraphqlCase[] = [];
    const answers: RawAnswer[] = [];
    // Generated and sent in chunks: generating them all at once blocks this process (and the server in it) for
    // longer than Node's keep-alive timeout, and the first requests would then race pooled connections being closed.
    for (let chunk = 0; requests.length < options.requests; chunk++) {
      const sample = fc.sample(arbitrary, { seed: seed + chunk, numRuns: Math.min(CHUNK, options.requests - requests.length) });
      requests.push(...sample);
      answers.push(...(await sendAll(context.url, sample, options.concurrency)));
    }
    const failures = requests.flatMap((request, i) => {
      const problem = graphqlAnswerProblem(answers[i]!, { batch: request.batch, broke: request.broke });
      return problem ? [`${request.method} ${request.url.slice(0, 120)} ${request.body?.slice(0, 200) ?? ''} → ${answers[i]!.status} ${answers[i]!.text.slice(0, 200)}: ${problem}`] : [];
    });
    reportFailures(failures, seed);
    // Some documents ran their resolvers (most random ones are refused by validation), and each kind of bomb was sent.
    expect(answers.filter((answer) => answer.status === 200 && answer.text.startsWith('{"data":{')).length).toBeGreaterThan(options.requests / 50);
    for (const limit of ['maxDepth', 'maxAliases', 'maxDirectives']) expect(requests.some((request) => request.broke?.includes(limit))).toBe(true);
    const control = await fetch(`${context.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ blockchain { latestBlock { number } } }' }) });
    expect(((await control.json()) as { data: { blockchain: { latestBlock: { number: unknown } } } }).data.blockchain.latestBlock.number).toBeDefined();
    expect(describeErrors(context.errors)).toBe('');
  }, FUZZ_TEST_TIMEOUT_MS);
}
