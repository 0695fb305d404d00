import { z } from 'zod';

/** A JSON Schema (2020-12, the dialect OpenAPI 3.1 uses) as plain data. */
export type JsonSchema = Record<string, unknown>;

/**
 * `schema` as JSON Schema. `io` picks the side described: what a client sends (`input`, before
 * transforms and defaults) or what it receives (`output`). Parts JSON Schema cannot express
 * (custom checks, transforms' code) are left open (`{}`) rather than failing: refinements only
 * narrow what the document already admits, and the server still checks every value.
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** Whether `schema` accepts a missing value (an optional parameter or body). */
export function acceptsUndefined(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}
