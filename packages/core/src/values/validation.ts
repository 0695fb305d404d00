import { z } from 'zod';
import { ExplorerError, InvalidRequestError } from '../errors/index.js';

type ErrorFactory = () => ExplorerError;

/**
 * Field schemas whose failure answers a specific error (e.g. a malformed hash answers
 * `Error! Invalid transaction hash format`) instead of the generic `Invalid request`.
 */
const fieldErrors = new WeakMap<z.ZodType, ErrorFactory>();

/** Marks `schema` so that a value failing it answers the error `factory` makes. */
export function withError<T extends z.ZodType>(schema: T, factory: ErrorFactory): T {
  fieldErrors.set(schema, factory);
  return schema;
}

/** The error a value failing `schema` answers, when {@link withError} set one (for the API description). */
export function fieldError(schema: z.ZodType): ExplorerError | null {
  return fieldErrors.get(schema)?.() ?? null;
}

/**
 * Parses `value` with an object schema. On failure throws the error registered for the first
 * failing field (see {@link withError}), else `Error! Invalid request: <field>: <reason>`.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, location: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const key = issue.path[0];
  if (schema instanceof z.ZodObject && typeof key === 'string') {
    const field = (schema.shape as Record<string, z.ZodType>)[key];
    const factory = field && fieldErrors.get(field);
    if (factory) throw factory();
  }
  const path = issue.path.length > 0 ? issue.path.join('.') : location;
  throw new InvalidRequestError(path, issue.message);
}
