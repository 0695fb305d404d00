import { memoryStorage } from '@chainlens/storage-memory';
import { buildClientSchema, buildSchema, getIntrospectionQuery, isInputObjectType, isObjectType, isUnionType, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createExplorer } from '../explorer.js';
import { asText } from '../http/index.js';
import { typeDefs as graphqlTypeDefs } from './built-in-graphql.js';

/** Every type with its fields, their arguments and types (or a union's members), in names' order: what a client can ask. */
function shape(schema: GraphQLSchema): Record<string, string[]> {
  const types = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__'));
  return Object.fromEntries(
    types
      .map((type): [string, string[]] => {
        if (isUnionType(type)) return [type.name, type.getTypes().map(String).sort()];
        if (!isObjectType(type) && !isInputObjectType(type)) return [type.name, []];
        const fields = Object.values(type.getFields()).map((field) => `${field.name}(${'args' in field ? field.args.map((arg: { name: string; type: unknown }) => `${arg.name}: ${String(arg.type)}`).join(', ') : ''}): ${String(field.type)}`);
        return [type.name, fields.sort()];
      })
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

describe('the graphql module', () => {
  // Never started: introspection reads the schema alone, so no node is asked anything.
  const explorer = createExplorer({ rpcUrl: 'http://127.0.0.1:1', storage: memoryStorage(), logger: pino({ level: 'silent' }) });
  afterAll(async () => (await explorer).close());

  it('serves exactly the fields the modules contributed, which graphqlTypeDefs (and the SDL test) describe', async () => {
    const answer = asText(
      await (await explorer).kernel.handle({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json' },
        ip: '10.0.0.1',
        rawBody: JSON.stringify({ query: getIntrospectionQuery() }),
      }),
    );
    expect(answer.status).toBe(200);
    const { data } = JSON.parse(answer.body) as { data: IntrospectionQuery };
    expect(shape(buildClientSchema(data))).toEqual(shape(buildSchema(graphqlTypeDefs)));
  });
});
