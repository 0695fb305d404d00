import {
  getNamedType,
  GraphQLError,
  isObjectType,
  Kind,
  type ASTNode,
  type FieldNode,
  type FragmentDefinitionNode,
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

/** Introspection is bounded by the token and character limits and can be turned off; it does not count here. */
const isIntrospection = (field: FieldNode) => field.name.value === '__schema' || field.name.value === '__type';

/** Depth of a selection set, fragments followed (a fragment cycle, refused by the spec's rules, stops the walk). */
function depthOf(selectionSet: SelectionSetNode, fragments: (name: string) => FragmentDefinitionNode | null | undefined, seen: Set<string>): number {
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (isIntrospection(selection)) continue;
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

/** Refuses an operation nested deeper than `max` fields. */
export function maxDepthRule(max: number): ValidationRule {
  return (context: ValidationContext) => ({
    OperationDefinition(operation) {
      const depth = depthOf(operation.selectionSet, (name) => context.getFragment(name), new Set());
      if (depth > max) context.reportError(limitError('maxDepth', `Query is nested ${depth} levels deep; the limit is ${max}`, operation));
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

/**
 * Refuses an operation whose estimated cost passes `limits.maxCost`: a leaf field costs 1, an
 * object field 2 plus its selections, and a connection field multiplies that by the page it asks
 * for (`first`, from the document or the variables; its default page when absent).
 */
export function maxCostRule(limits: DocumentLimits, variables: Readonly<Record<string, unknown>> | null | undefined): ValidationRule {
  return (context: ValidationContext) => {
    const schema = context.getSchema();
    const firstOf = (field: FieldNode, parent: GraphQLObjectType): number => {
      const definition = parent.getFields()[field.name.value];
      if (!definition?.args.some((arg) => arg.name === 'first')) return 1;
      const argument = field.arguments?.find((arg) => arg.name.value === 'first');
      let value: unknown = limits.defaultFirst;
      if (argument?.value.kind === Kind.INT) value = Number(argument.value.value);
      else if (argument?.value.kind === Kind.VARIABLE) value = variables?.[argument.value.name.value] ?? limits.defaultFirst;
      // An out-of-range `first` is refused by its resolver; here it costs the most a page can.
      return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? Math.min(value, limits.maxFirst) : limits.maxFirst;
    };
    const costOf = (selectionSet: SelectionSetNode, parent: GraphQLObjectType, seen: Set<string>): number => {
      let cost = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          if (isIntrospection(selection) || selection.name.value === '__typename') continue;
          const type = parent.getFields()[selection.name.value]?.type;
          const named = type && getNamedType(type);
          if (!selection.selectionSet || !named || !isObjectType(named)) {
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
          if (condition && isObjectType(condition)) cost += costOf(fragment.selectionSet, condition, next);
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
