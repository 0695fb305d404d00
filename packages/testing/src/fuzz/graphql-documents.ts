import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { hostileText } from './values.js';

/** The limits a document is checked against (the `graphql` config section). */
export interface GraphqlFuzzLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxFirst: number;
}

/** A generated document, and the limit it was built to break (it must then run nothing). */
export interface GeneratedDocument {
  query: string;
  variables?: unknown;
  operationName?: unknown;
  /** `extensions.limit` the answer must name, for documents built past one limit. */
  breaks?: 'maxDepth' | 'maxAliases' | 'maxDirectives' | 'maxFirst';
}

/** Values the fuzzer puts where the schema wants `known` kinds of things. */
export interface KnownValues {
  addresses: readonly string[];
  hashes: readonly string[];
}

const GRAPHQL_STRING = (text: string) => JSON.stringify(text);

/** A literal for an input type: usually of the right kind (a known address, a small number), sometimes of any other. */
function literal(type: GraphQLInputType, known: KnownValues, limits: GraphqlFuzzLimits, name: string): fc.Arbitrary<string> {
  const named = getNamedType(type);
  const wrong = fc.oneof(
    hostileText.map(GRAPHQL_STRING),
    fc.constantFrom('null', 'true', '-1', '1.5', '[1, 2]', '{a: 1}', '99999999999999999999999', 'SOME_ENUM', '$undefinedVariable'),
  );
  let right: fc.Arbitrary<string>;
  if (name === 'first' || name === 'last') right = fc.oneof(fc.integer({ min: 0, max: limits.maxFirst }).map(String), fc.constantFrom(String(limits.maxFirst + 1), '1000000', '2147483647', '-5'));
  else if (isEnumType(named)) right = fc.constantFrom(...named.getValues().map((value) => value.name));
  else if (isScalarType(named) && (named.name === 'Int' || named.name === 'Float')) right = fc.integer({ min: -2, max: 1_000 }).map(String);
  else if (isScalarType(named) && named.name === 'Boolean') right = fc.constantFrom('true', 'false');
  else if (isInputObjectType(named)) {
    const fields = Object.values(named.getFields());
    right = fc.tuple(...fields.map((field) => fc.option(literal(field.type, known, limits, field.name), { nil: undefined }))).map(
      (values) => `{${values.flatMap((value, i) => (value === undefined ? [] : [`${fields[i]!.name}: ${value}`])).join(', ')}}`,
    );
  } else right = fc.constantFrom(...known.addresses, ...known.hashes, '0', '1', 'latest', '').map(GRAPHQL_STRING);
  if (isListType(isNonNullType(type) ? type.ofType : type)) right = fc.array(right, { maxLength: 3 }).map((items) => `[${items.join(', ')}]`);
  return fc.oneof({ weight: 20, arbitrary: right }, { weight: 1, arbitrary: wrong });
}

function argumentsOf(args: readonly GraphQLArgument[], known: KnownValues, limits: GraphqlFuzzLimits): fc.Arbitrary<string> {
  if (args.length === 0) return fc.oneof({ weight: 30, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constant('(unknownArgument: 1)') });
  return fc
    .tuple(...args.map((arg) => fc.oneof({ weight: isNonNullType(arg.type) ? 8 : 3, arbitrary: literal(arg.type, known, limits, arg.name).map((value) => `${arg.name}: ${value}`) }, { weight: 2, arbitrary: fc.constant('') })))
    .map((parts) => {
      const given = parts.filter((part) => part !== '');
      return given.length === 0 ? '' : `(${given.join(', ')})`;
    });
}

// Made once, not per field drawn: making a regular expression's arbitrary costs far more than drawing from it.
/** Sometimes an alias before a field. */
const ALIAS = fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,6}$/).map((name) => `${name}: `) });
/** Sometimes a directive after a field's arguments. */
const DIRECTIVE = fc.oneof({ weight: 20, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(' @include(if: true)', ' @skip(if: false)', ' @skip(if: "yes")', ' @unknownDirective') });

/**
 * A selection set on `type`, `depth` levels deep at most: random fields of the schema with random
 * arguments, sometimes an alias, `__typename`, a field that does not exist, or a directive.
 */
function selections(schema: GraphQLSchema, type: GraphQLNamedType, depth: number, known: KnownValues, limits: GraphqlFuzzLimits): fc.Arbitrary<string> {
  if (isUnionType(type) || isInterfaceType(type)) {
    const possible = schema.getPossibleTypes(type);
    return fc.constantFrom(...possible).chain((member) => selections(schema, member, depth, known, limits).map((inner) => `{ __typename ... on ${member.name} ${inner} }`));
  }
  if (!isObjectType(type)) return fc.constant('');
  const fields = Object.values((type as GraphQLObjectType).getFields());
  const field = fc.constantFrom(...fields).chain((chosen) => {
    const target = getNamedType(chosen.type);
    const leaf = !isObjectType(target) && !isUnionType(target) && !isInterfaceType(target);
    const inner = leaf ? fc.constant('') : depth <= 0 ? fc.constant('{ __typename }') : selections(schema, target, depth - 1, known, limits);
    return fc.tuple(ALIAS, argumentsOf(chosen.args, known, limits), DIRECTIVE, inner).map(([as, args, dir, sub]) => `${as}${chosen.name}${args}${dir} ${sub}`);
  });
  const extra = fc.constantFrom('__typename', 'noSuchField', 'hash(unknown: 1)');
  return fc.array(fc.oneof({ weight: 30, arbitrary: field }, { weight: 1, arbitrary: extra }), { minLength: 1, maxLength: 3 }).map((parts) => `{ ${parts.join(' ')} }`);
}

/** A path from the query root nesting deeper than `depth` fields, following object fields the schema has (cycles included). */
function deepPath(schema: GraphQLSchema, depth: number): string | null {
  const walk = (type: GraphQLObjectType, left: number): string | null => {
    if (left === 0) return '{ __typename }';
    for (const field of Object.values(type.getFields())) {
      const target = getNamedType(field.type);
      if (!isObjectType(target) || field.args.some((arg) => isNonNullType(arg.type))) continue;
      const inner = walk(target, left - 1);
      if (inner) return `{ ${field.name} ${inner} }`;
    }
    return null;
  };
  return walk(schema.getQueryType()!, depth);
}

/** Documents built past each limit, and others every parser and validator must refuse calmly. */
function hostileDocuments(schema: GraphQLSchema, limits: GraphqlFuzzLimits): fc.Arbitrary<GeneratedDocument> {
  const deep = fc.integer({ min: limits.maxDepth + 1, max: limits.maxDepth + 30 }).map((depth) => deepPath(schema, depth));
  const aliasBomb = fc.integer({ min: limits.maxAliases + 1, max: limits.maxAliases * 10 }).map((count): GeneratedDocument => ({
    query: `{ ${Array.from({ length: count }, (_, i) => `a${i}: __typename`).join(' ')} }`,
    breaks: 'maxAliases',
  }));
  const directiveFlood = fc.integer({ min: limits.maxDirectives + 1, max: limits.maxDirectives * 10 }).map((count): GeneratedDocument => ({
    query: `{ __typename ${'@include(if: true) '.repeat(count)}}`,
    breaks: 'maxDirectives',
  }));
  const fragmentCycle = fc.constantFrom(
    'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }',
    'query { ...A } fragment A on Query { __typename ...A }',
  );
  const junk = fc.oneof(
    hostileText,
    fc.constantFrom('{', '}', 'query {', '{ a(b: ) }', 'subscription { newBlocks }', 'mutation { x }', '{ __schema { types { name fields { name type { name ofType { name ofType { name } } } } } } }', `{ __typename(${'a: 1, '.repeat(500)}) }`, `"${'x'.repeat(9_000)}"`, '# only a comment', '\u0000'),
  );
  return fc.oneof(
    deep.filter((query): query is string => query !== null).map((query): GeneratedDocument => ({ query, breaks: 'maxDepth' })),
    aliasBomb,
    directiveFlood,
    fragmentCycle.map((query): GeneratedDocument => ({ query })),
    junk.map((query): GeneratedDocument => ({ query })),
  );
}

/**
 * GraphQL requests generated from the schema the server introspected: random selections with
 * random and wrong arguments, unknown fields, directives; documents past every limit; fragment
 * cycles; junk text; odd `variables` and `operationName`.
 */
export function graphqlDocuments(schema: GraphQLSchema, known: KnownValues, limits: GraphqlFuzzLimits): fc.Arbitrary<GeneratedDocument> {
  const random = selections(schema, schema.getQueryType()!, Math.max(2, limits.maxDepth - 2), known, limits).map((query): GeneratedDocument => ({ query }));
  const withExtras = fc.record({
    document: fc.oneof({ weight: 6, arbitrary: random }, { weight: 3, arbitrary: hostileDocuments(schema, limits) }),
    variables: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }),
    operationName: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.oneof(hostileText, fc.constantFrom<unknown>(null, 1, {}, [])) }),
  });
  // Junk variables or operationName may be refused first, as a request: the limit is then not what answers.
  return withExtras.map(({ document, variables, operationName }) => ({ ...document, variables, operationName, breaks: variables === undefined && operationName === undefined ? document.breaks : undefined }));
}
