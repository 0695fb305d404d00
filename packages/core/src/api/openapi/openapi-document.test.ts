import { memoryStorage } from '@chainlens/storage-memory';
import { Validator } from '@seriousme/openapi-schema-validator';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExplorer, type Explorer } from '../../explorer.js';
import { asText } from '../../http/index.js';
import { openApiPath } from './route-operation.js';

type Operation = {
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { required: boolean; content: Record<string, { schema: { required?: string[]; properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security: Record<string, string[]>[];
};
type Document = { openapi: string; info: { description: string }; paths: Record<string, Record<string, Operation>> };

describe('GET /api/v1/openapi.json', () => {
  let explorer: Explorer;
  let document: Document;
  beforeAll(async () => {
    // The document is built from the route table at creation; no request reaches the node.
    explorer = await createExplorer({ rpcUrl: 'http://127.0.0.1:9', storage: memoryStorage(), logger: pino({ level: 'silent' }) });
    const answer = await explorer.kernel.handle({ method: 'GET', url: '/api/v1/openapi.json', headers: {}, ip: '127.0.0.1' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    document = JSON.parse(asText(answer).body) as Document;
  });
  afterAll(() => explorer.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('describes every route of the route table, the Etherscan API, JSON-RPC, metrics and itself included', () => {
    const missing = explorer.kernel.routes.filter((route) => !document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()]);
    expect(missing.map((route) => `${route.method} ${route.path}`)).toEqual([]);
    for (const path of ['/api', '/', '/metrics', '/docs', '/api/v1/openapi.json']) expect(Object.keys(document.paths)).toContain(path);
  });

  it('takes parameters from the zod schemas: required ones, block numbers or latest, and path parameters', () => {
    const blockTag = { anyOf: [{ type: 'string', const: 'latest' }, { type: 'integer', minimum: 0 }], description: expect.stringContaining('newest indexed block') };
    const getblock = document.paths['/api/v1/block/getblock']!.get!;
    expect(getblock.parameters).toContainEqual({ name: 'blockno', in: 'query', required: true, schema: blockTag });
    const transaction = document.paths['/api/v1/transaction/{hash}']!.get!;
    expect(transaction.parameters![0]).toMatchObject({ name: 'hash', in: 'path', required: true, schema: { type: 'string' } });
    const txlist = document.paths['/api/v1/account/txlist']!.get!;
    expect(txlist.parameters!.find((p) => p.name === 'page')).toMatchObject({ required: false });
    expect(txlist.parameters!.find((p) => p.name === 'startblock')).toEqual({ name: 'startblock', in: 'query', required: false, schema: blockTag });
  });

  it('describes request bodies with their required fields', () => {
    const register = document.paths['/api/v1/auth/register']!.post!;
    expect(register.requestBody!.required).toBe(true);
    expect(register.requestBody!.content['application/json']!.schema.required).toEqual(expect.arrayContaining(['email', 'password', 'name']));
  });

  it('has a result record for every route answering the envelope', () => {
    const undescribed = explorer.kernel.routes.filter((route) => !route.format && !route.response);
    expect(undescribed.map((route) => `${route.method} ${route.path}`)).toEqual([]);
  });

  it('describes the records of routes that declare them inside the envelope', () => {
    const envelope = document.paths['/api/v1/block/getblock']!.get!.responses['200']!.content!['application/json']!.schema as { allOf: { properties?: { result?: { required?: string[] } } }[] };
    expect(envelope.allOf[0]).toEqual({ $ref: '#/components/schemas/Envelope' });
    expect(envelope.allOf[1]!.properties!.result!.required).toEqual(expect.arrayContaining(['blockNumber', 'hash', 'transactionCount', 'transactions']));
    const txlist = JSON.stringify(document.paths['/api/v1/account/txlist']!.get!.responses['200']);
    expect(txlist).toContain('"type":"array"');
    expect(txlist).toContain('txreceipt_status');
  });

  it('lists the errors a route answers with their envelope messages, and the credentials it takes', () => {
    const getblock = document.paths['/api/v1/block/getblock']!.get!;
    const badRequest = JSON.stringify(getblock.responses['400']);
    expect(badRequest).toContain('Error! Invalid block number');
    expect(JSON.stringify(getblock.responses['429'])).toContain('Max rate limit reached');
    expect(JSON.stringify(getblock.responses['401'])).toContain('Invalid API key');
    expect(getblock.security).toEqual([{}, { bearerAuth: [] }, { apiKeyAuth: [] }]);
    expect(JSON.stringify(document.paths['/api/v1/transaction/{hash}']!.get!.responses['404'])).toContain('Error! Transaction not found');
    expect(JSON.stringify(document.paths['/api/v1/auth/register']!.post!.responses['409'])).toContain('Error! Email already registered');
    const keys = document.paths['/api/v1/auth/api-keys']!.post!;
    expect(keys.security).toEqual([{ bearerAuth: [] }]);
    expect(JSON.stringify(keys.responses['401'])).toContain('Unauthorized');
    const admin = document.paths['/metrics']!.get!;
    expect(JSON.stringify(admin.responses['403'])).toContain('Forbidden: insufficient scope');
    expect(admin.responses['200']!.content).toHaveProperty(['text/plain']);
  });

  it('documents how rate limits count, the API key cap, how WebSocket connections close and the GraphQL limits', () => {
    const notes = document.info.description;
    expect(notes).toContain('per account');
    expect(notes).toContain('409 `Error! API key limit reached`');
    expect(notes).toContain('code **4401**');
    for (const reason of ['Token expired', 'Invalid API key', 'Unauthorized']) expect(notes).toContain(`\`${reason}\``);
    expect(notes).toContain('fixed budget of 15 levels');
  });
});
