import fc from 'fast-check';
import type { z } from 'zod';
import { HOSTILE } from '../api/hostile-input.js';

/**
 * Text attackers and broken clients send: the hand-picked hostile suite's strings, and more JSON,
 * number, path and encoding fragments.
 */
const NASTY_TEXT = [
  ...HOSTILE.filter((value): value is string => typeof value === 'string'),
  '{"$gt":""}',
  '[1,2,',
  '{"a":',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e400',
  '0x',
  '0xZZ',
  `0x${'f'.repeat(64)}`,
  `0x${'0'.repeat(41)}`,
  '../../etc/passwd',
  '%00',
  '\r\n',
  '\ufeff',
  'latest',
  'pending',
  'earliest',
  '__proto__',
  'constructor',
];

/** Numbers at and past every edge: huge, negative, fractional, not finite once serialized. */
const NASTY_NUMBERS = [0, -1, -0.5, 0.5, 1.5, 2 ** 31, 2 ** 53, 2 ** 64, -(2 ** 63), 1e21, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2];

/** A string of any kind a client could put in a URL, a header-free field or a JSON string. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(...NASTY_NUMBERS).map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((length) => 'x'.repeat(length)) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
);

/** Any JSON value, of the wrong type for most fields: numbers past every edge, objects, arrays, nulls. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileText },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(...HOSTILE.filter((value) => typeof value !== 'string'), ...NASTY_NUMBERS, false, {}, [], [null], JSON.parse('{"__proto__":{"admin":true}}')) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 5 }) },
  // Deep nesting: parsers and validators that recurse must not fall over.
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 2_000 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown) },
);

/** A header value a client may send (HTTP only carries Latin-1 without control characters). */
export const headerText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', "' OR 1=1 --", 'null', 'Bearer', 'Bearer ', 'Basic YWRtaW46YWRtaW4=', 'ÿ', 'x'.repeat(9_000)),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((code) => code !== 0x7f).map((code) => String.fromCharCode(code)), maxLength: 80 }).map((text) => text.trim()),
);

/**
 * Well-formed values of every kind the API takes. A field's valid pool is the subset its own
 * zod schema accepts, so requests get past validation into handlers and storage as well.
 */
export function validCandidates(known: { addresses: string[]; hashes: string[]; ids: string[]; emails: string[] }): unknown[] {
  const texts = [
    ...known.addresses,
    ...known.addresses.map((address) => address.toLowerCase()),
    ...known.hashes,
    ...known.ids,
    ...known.emails,
    `0x${'0'.repeat(40)}`,
    `0x${'ab'.repeat(32)}`,
    '0',
    '1',
    '2',
    '5',
    '10',
    '100',
    '1000',
    '0x1',
    'latest',
    'asc',
    'desc',
    'read',
    'write',
    'admin',
    'true',
    'false',
    'Someone',
    'a long enough passphrase',
    'pragma solidity ^0.8.0; contract Fuzz {}',
    '0.8.37',
    'v0.8.37+commit.f401782d',
    '0x02',
    '0x',
    'account',
    'balance',
  ];
  return [
    ...texts,
    0,
    1,
    5,
    50,
    200,
    true,
    false,
    null,
    ['read'],
    ['read', 'write'],
    ['user'],
    known.hashes.slice(0, 3),
    new Date(Date.now() + 86_400_000).toISOString(),
  ];
}

/** The candidates `schema` accepts: the field's own definition picks its valid values. */
export function acceptedBy(schema: z.ZodType, candidates: readonly unknown[]): unknown[] {
  return candidates.filter((candidate) => schema.safeParse(candidate).success);
}
