import { z } from 'zod';

/** The zod fields records are made of (see `record-schemas.ts`). */

export const decimal = z.string().regex(/^\d+$/).describe('a decimal integer');
export const hex = z.string().regex(/^0x[0-9a-f]*$/).describe('lowercase 0x-prefixed hex');
export const flag = z.enum(['0', '1']);
/** The public label of an address a record names. */
export const nullableLabel = (whose: string) => z.string().nullable().describe(`the public label of ${whose}; null without one`);
