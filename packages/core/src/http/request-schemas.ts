import { z } from 'zod';
import { addressSchema } from '../values/hex.js';

/**
 * Reusable input schemas for routes: paging, flags, free text. Hashes, addresses and block tags,
 * which the domain shares, are in `values/`.
 */

const UINT = /^(0|[1-9]\d*)$/;

/** Path parameters of a route about one address (`/…/:address`). */
export const addressParams = z.object({ address: addressSchema });

/** A UTF-16 surrogate without its partner: no database text can hold one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Free text kept exactly as given: trimmed, `min`..`max` characters, no lone surrogates and no
 * control characters (`multiline` allows line breaks and tabs). What storage could not hold is
 * refused here rather than changed there.
 */
export function textSchema(max: number, options: { min?: number; multiline?: boolean } = {}) {
  const control = options.multiline ? /[\p{Cc}](?<![\n\r\t])/u : /\p{Cc}/u;
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(options.min ?? 0, options.min ? 'must not be empty' : undefined)
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !control.test(value), 'must not contain control characters')
    .refine((value) => !LONE_SURROGATE.test(value), 'must be valid Unicode text');
}

/** An http(s) URL of at most 2048 characters. */
export const urlSchema = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .pipe(z.url({ protocol: /^https?$/, message: 'must be an http or https URL' }));

/** An email address (trimmed; at most 254 characters, the longest a mailbox can be). */
export const emailSchema = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email({ message: 'must be a valid email address' }));

/** A decimal uint256 string (Wei amounts) as bigint. */
export const uintStringSchema = z
  .string()
  // zod runs every check by default: the range check must not see (and BigInt() throw on) a non-number.
  .regex(UINT, { message: 'must be a non-negative decimal integer', abort: true })
  .refine((v) => v.length <= 78 && BigInt(v) < 2n ** 256n, 'must fit in uint256')
  .transform((v) => BigInt(v));

/**
 * A positive integer query value with a default; values above `max` are clamped to it, zero,
 * negative or non-integer ones are 400 (decisions.md, paging).
 */
export function positiveIntQuery(defaultValue: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(/^\d+$/, 'must be a positive integer')
    .refine((v) => /[1-9]/.test(v), 'must be a positive integer')
    .transform((v) => Math.min(Number(v), max))
    .refine((v) => Number.isSafeInteger(v), 'is too large')
    .optional()
    .transform((v) => v ?? defaultValue);
}

/** A boolean query flag: `true`/`false` (also `1`/`0`). */
export const booleanQuery = z
  .enum(['true', 'false', '1', '0'], { message: "must be 'true' or 'false'" })
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** A boolean query filter: `true`/`false` (also `1`/`0`), or `undefined` when absent (no filter). */
export const optionalBooleanQuery = z
  .enum(['true', 'false', '1', '0'], { message: "must be 'true' or 'false'" })
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1'));
