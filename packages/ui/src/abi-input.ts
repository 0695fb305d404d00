import type { AbiParameter } from 'viem';

/** An ABI parameter as a verified ABI gives it (a tuple with its components). */
export type Parameter = AbiParameter;

/** A value the input cannot take, with what it should be. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

const INTEGER = /^(u?)int(\d*)$/;
const FIXED_BYTES = /^bytes(\d+)$/;
const ARRAY = /^(.*)\[(\d*)\]$/;

/**
 * What a person typed for `parameter`, as the value viem encodes: integers in decimal or 0x hex,
 * `true`/`false`, 0x hex bytes, text as is, arrays and tuples as JSON (`["0x…", 2]`). Throws an
 * {@link InputError} saying what the type takes.
 */
export function parseInput(parameter: Parameter, text: string): unknown {
  const type = parameter.type;
  if (ARRAY.test(type) || type.startsWith('tuple')) return parseStructured(parameter, parseJson(text, type));
  return parseScalar(type, text.trim(), text);
}

function parseJson(text: string, type: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError(`${type} takes JSON, e.g. ${type.startsWith('tuple') ? '["0x…", 1]' : '[1, 2]'}`);
  }
}

function parseStructured(parameter: Parameter, value: unknown): unknown {
  const array = ARRAY.exec(parameter.type);
  if (array) {
    const [, inner = '', length] = array;
    if (!Array.isArray(value)) throw new InputError(`${parameter.type} takes a JSON array`);
    if (length && value.length !== Number(length)) throw new InputError(`${parameter.type} takes exactly ${length} elements, not ${value.length}`);
    return value.map((element) => parseStructured({ ...parameter, type: inner }, element));
  }
  if (parameter.type === 'tuple' && 'components' in parameter) {
    const components = parameter.components;
    if (Array.isArray(value)) {
      if (value.length !== components.length) throw new InputError(`the tuple takes ${components.length} values, not ${value.length}`);
      return components.map((component, index) => parseStructured(component, value[index]));
    }
    if (typeof value === 'object' && value !== null) {
      const fields = value as Record<string, unknown>;
      return Object.fromEntries(components.map((component) => [component.name ?? '', parseStructured(component, fields[component.name ?? ''])]));
    }
    throw new InputError('a tuple takes a JSON array (in order) or object (by name)');
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return parseScalar(parameter.type, String(value).trim(), String(value));
  throw new InputError(`${parameter.type} takes a string or number in the JSON`);
}

function parseScalar(type: string, text: string, raw: string): unknown {
  if (type === 'address') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw new InputError('an address is 0x and 40 hex digits');
    return text.toLowerCase();
  }
  if (type === 'bool') {
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
    throw new InputError('bool takes true or false');
  }
  if (type === 'string') return raw;
  if (type === 'bytes') {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(text)) throw new InputError('bytes takes 0x and an even number of hex digits');
    return text.toLowerCase();
  }
  const fixed = FIXED_BYTES.exec(type);
  if (fixed) {
    const size = Number(fixed[1]);
    if (!new RegExp(`^0x[0-9a-fA-F]{${2 * size}}$`).test(text)) throw new InputError(`${type} takes 0x and exactly ${2 * size} hex digits`);
    return text.toLowerCase();
  }
  const integer = INTEGER.exec(type);
  if (integer) return parseInteger(type, text, integer[1] === 'u', Number(integer[2] || 256));
  throw new InputError(`${type} is not a type this form can fill in`);
}

function parseInteger(type: string, text: string, unsigned: boolean, bits: number): bigint {
  if (!/^-?(\d+|0x[0-9a-fA-F]+)$/.test(text)) throw new InputError(`${type} takes a whole number (decimal, or hex with 0x)`);
  const negative = text.startsWith('-');
  const value = negative ? -BigInt(text.slice(1)) : BigInt(text);
  const [min, max] = unsigned ? [0n, (1n << BigInt(bits)) - 1n] : [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n];
  if (value < min || value > max) throw new InputError(`${type} takes ${min} to ${max}`);
  return value;
}

/** A decoded value as text: integers in decimal, arrays and tuples as JSON with their strings. */
export function formatOutput(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return value;
  return JSON.stringify(value, (_, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner));
}
