import {
  getNamedType,
  GraphQLError,
  isCompositeType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type ASTNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** The document limits (the `graphql` config section), each checked before any resolver runs. */
export interface DocumentLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxCost: number;
  maxFirst: number;
  defaultFirst: number;
}

/** An operation over one of the limits; `extensions.limit` names which. */
function limitError(limit: string, message: string, nodes?: ASTNode | readonly ASTNode[]): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code: 'LIMIT_EXCEEDED', limit } });
}

/**
 * Most levels an introspection field (`__schema`, `__type`) may nest, fixed: the depth of the
 * standard introspection query (graphql-js's `getIntrospectionQuery()` with every option, which
 * GraphiQL and code generators send), whose type references nest `ofType` nine levels under
 * `__schema { types { fields { args { type`. graphql-js itself refuses `fields`, `interfaces`,
 * `possibleTypes` or `inputFields` nested three deep, the lists that multiply an answer.
 */
export const INTROSPECTION_MAX_DEPTH = 15;

/** The two fields that answer about the schema itself; only the query root has them. */
const isIntrospection = (field: FieldNode) => field.name.value === '__schema' || field.name.value === '__type';

type FragmentLookup = (name: string) => FragmentDefinitionNode | null | undefined;

/** Depth of a selection set, every field counted, fragments followed (a fragment cycle, refused by the spec's rules, stops the walk). */
function depthOf(selectionSet: SelectionSetNode, fragments: FragmentLookup, seen: Set<string>): number {
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      deepest = Math.max(deepest, 1 + (selection.selectionSet ? depthOf(selection.selectionSet, fragments, seen) : 0));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(selection.selectionSet, fragments, seen));
    } else {
      const fragment = fragments(selection.name.value);
      if (!fragment || seen.has(fragment.name.value)) continue;
      deepest = Math.max(deepest, depthOf(fragment.selectionSet, fragments, new Set(seen).add(fragment.name.value)));
    }
  }
  return deepest;
}

/** The fields a selection set selects at its own level, fragments spread. */
function* fieldsOf(selectionSet: SelectionSetNode, fragments: FragmentLookup, seen: Set<string>): Generator<FieldNode> {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) yield selection;
    else if (selection.kind === Kind.INLINE_FRAGMENT) yield* fieldsOf(selection.selectionSet, fragments, seen);
    else {
      const fragment = fragments(selection.name.value);
      if (fragment && !seen.has(fragment.name.value)) yield* fieldsOf(fragment.selectionSet, fragments, new Set(seen).add(fragment.name.value));
    }
  }
}

/**
 * Refuses an operation nested deeper than `max` fields. Introspection counts like any other
 * field, against a budget of its own: a root `__schema` or `__type` may nest
 * {@link INTROSPECTION_MAX_DEPTH} levels, the rest of the operation `max`.
 */
export function maxDepthRule(max: number): ValidationRule {
  return (context: ValidationContext) => ({
    OperationDefinition(operation) {
      const fragments: FragmentLookup = (name) => context.getFragment(name);
      let data = 0;
      let introspection = 0;
      for (const field of fieldsOf(operation.selectionSet, fragments, new Set())) {
        const depth = 1 + (field.selectionSet ? depthOf(field.selectionSet, fragments, new Set()) : 0);
        if (isIntrospection(field)) introspection = Math.max(introspection, depth);
        else data = Math.max(data, depth);
      }
      if (data > max) context.reportError(limitError('maxDepth', `Query is nested ${data} levels deep; the limit is ${max}`, operation));
      if (introspection > INTROSPECTION_MAX_DEPTH) {
        context.reportError(limitError('introspectionDepth', `Introspection is nested ${introspection} levels deep; the limit is ${INTROSPECTION_MAX_DEPTH}`, operation));
      }
    },
  });
}

/** Refuses a document with more than `max` aliases. */
export function maxAliasesRule(max: number): ValidationRule {
  return (context: ValidationContext) => {
    let count = 0;
    return {
      Field(field) {
        if (field.alias) count++;
      },
      Document: {
        leave(document) {
          if (count > max) context.reportError(limitError('maxAliases', `Query uses ${count} aliases; the limit is ${max}`, document));
        },
      },
    };
  };
}

/** Refuses a document with more than `max` directives. */
export function maxDirectivesRule(max: number): ValidationRule {
  return (context: ValidationContext) => {
    let count = 0;
    return {
      Directive() {
        count++;
      },
      Document: {
        leave(document) {
          if (count > max) context.reportError(limitError('maxDirectives', `Query uses ${count} directives; the limit is ${max}`, document));
        },
      },
    };
  };
}

/** A field's definition on `parent`, the meta-fields included (`__schema` and `__type` are the query root's; a union has only `__typename`). */
function fieldDefinition(schema: GraphQLSchema, parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (parent === schema.getQueryType() && name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
  if (parent === schema.getQueryType() && name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  return 'getFields' in parent ? parent.getFields()[name] : undefined;
}

/**
 * The `@cost(weight:)` a field's definition declares, else 0: what resolving it once costs beyond
 * its shape (a trace or another node round trip), so that a list cannot ask the node once per row
 * for the price of a storage read.
 */
function weightOf(definition: GraphQLField<unknown, unknown> | undefined): number {
  const directive = definition?.astNode?.directives?.find((candidate) => candidate.name.value === 'cost');
  const weight = directive?.arguments?.find((argument) => argument.name.value === 'weight')?.value;
  return weight?.kind === Kind.INT ? Number(weight.value) : 0;
}

/**
 * Refuses an operation whose estimated cost passes `limits.maxCost`: a leaf field costs 1, an
 * object field 2 plus its selections, and a connection field multiplies that by the page it asks
 * for (`first`, from the document or the variables; its default page when absent). A field adds
 * its `@cost` weight once per object it is resolved for (its parent's page multiplies it, its own
 * does not: a page's node reads are batched). A field of a union or interface counts the fragments
 * for every type it may be, as if it were all of them. Every field counts, introspection
 * (`__schema`, `__type` and what they select) and `__typename` included.
 */
export function maxCostRule(limits: DocumentLimits, variables: Readonly<Record<string, unknown>> | null | undefined): ValidationRule {
  return (context: ValidationContext) => {
    const schema = context.getSchema();
    const firstOf = (field: FieldNode, parent: GraphQLCompositeType): number => {
      const definition = fieldDefinition(schema, parent, field.name.value);
      if (!definition?.args.some((arg) => arg.name === 'first')) return 1;
      const argument = field.arguments?.find((arg) => arg.name.value === 'first');
      let value: unknown = limits.defaultFirst;
      if (argument?.value.kind === Kind.INT) value = Number(argument.value.value);
      else if (argument?.value.kind === Kind.VARIABLE) value = variables?.[argument.value.name.value] ?? limits.defaultFirst;
      // An out-of-range `first` is refused by its resolver; here it costs the most a page can.
      return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? Math.min(value, limits.maxFirst) : limits.maxFirst;
    };
    const costOf = (selectionSet: SelectionSetNode, parent: GraphQLCompositeType, seen: Set<string>): number => {
      let cost = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          const definition = fieldDefinition(schema, parent, selection.name.value);
          const named = definition && getNamedType(definition.type);
          cost += weightOf(definition);
          if (!selection.selectionSet || !named || !isCompositeType(named)) {
            cost += 1;
            continue;
          }
          cost += (2 + costOf(selection.selectionSet, named, seen)) * firstOf(selection, parent);
        } else {
          const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : context.getFragment(selection.name.value);
          if (!fragment) continue;
          if (selection.kind === Kind.FRAGMENT_SPREAD && seen.has(selection.name.value)) continue;
          const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
          const next = selection.kind === Kind.FRAGMENT_SPREAD ? new Set(seen).add(selection.name.value) : seen;
          if (condition && isCompositeType(condition)) cost += costOf(fragment.selectionSet, condition, next);
        }
      }
      return cost;
    };
    return {
      OperationDefinition(operation) {
        const root = rootType(schema, operation.operation);
        if (!root) return;
        const cost = costOf(operation.selectionSet, root, new Set());
        if (cost > limits.maxCost) context.reportError(limitError('maxCost', `Query costs ${cost}; the limit is ${limits.maxCost}`, operation));
      },
    };
  };
}

function rootType(schema: GraphQLSchema, operation: 'query' | 'mutation' | 'subscription'): GraphQLObjectType | null | undefined {
  return operation === 'query' ? schema.getQueryType() : operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
}

/** The limit rules that depend on the document alone (the cost depends on the variables too: {@link maxCostRule}). */
export function staticLimitRules(limits: DocumentLimits): ValidationRule[] {
  return [maxDepthRule(limits.maxDepth), maxAliasesRule(limits.maxAliases), maxDirectivesRule(limits.maxDirectives)];
}
