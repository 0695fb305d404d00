import type { Hex } from '@chainlens/core';
import { types as globalTypes } from 'pg';

/**
 * Conversions at the Postgres boundary. Hex strings travel as bytea in Postgres's hex input
 * format (`\x…`), quantities as decimal strings into `numeric(78,0)` or `bigint`, so no value
 * ever passes through a JS number.
 */

/** A `0x` hex string as bytea input text. */
export function toBytea(hex: Hex): string {
  return `\\x${hex.slice(2)}`;
}

/** A quantity as the decimal text Postgres parses exactly into `numeric` or `bigint`. */
export function toDecimal(value: bigint): string {
  return value.toString();
}

/** {@link toDecimal} that keeps `null`. */
export function toNullableDecimal(value: bigint | null): string | null {
  return value === null ? null : value.toString();
}

/*
 * Array parameters are written as Postgres array literals here rather than left to pg, which
 * quotes and regex-escapes every element: hex, digits and NULL need no quoting, and a block
 * write sends about a thousand elements.
 */

/** A `bytea[]` literal: `{\\x0a1b,NULL}` (the backslash of `\x` escaped for the array syntax). */
export function byteaArray(values: readonly (Hex | null)[]): string {
  return `{${values.map((hex) => (hex === null ? 'NULL' : `\\\\x${hex.slice(2)}`)).join(',')}}`;
}

/** A `numeric[]`, `bigint[]` or `integer[]` literal: `{1,-2,NULL}`. */
export function integerArray(values: readonly (bigint | number | null)[]): string {
  return `{${values.map((value) => (value === null ? 'NULL' : value.toString())).join(',')}}`;
}

const BYTEA = 17;
const INT8 = 20;
const NUMERIC = 1700;

/** bytea output text (`\x0a1b…`, the server default `bytea_output = hex`) as a `0x` string. */
function parseBytea(text: string): Hex {
  if (!text.startsWith('\\x')) throw new Error(`postgresStorage: expected bytea in hex format, got ${text.slice(0, 8)}…`);
  return `0x${text.slice(2)}`;
}

/** Every numeric column of the schema is `numeric(78,0)`: an integer, exact as a bigint. */
const parsers: Record<number, (text: string) => unknown> = {
  [BYTEA]: parseBytea,
  [INT8]: BigInt,
  [NUMERIC]: BigInt,
};

/**
 * Type parsers for this package's own pool only (pg's `types` client option), so the host
 * application's pg clients keep pg's global defaults.
 */
export const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (format === 'binary') return globalTypes.getTypeParser(oid, format);
    return parsers[oid] ?? globalTypes.getTypeParser(oid, 'text');
  },
};
