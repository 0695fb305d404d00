import { describe, expect, it } from 'vitest';
import { formatOutput, InputError, parseInput } from './abi-input.js';

const parse = (type: string, text: string, components?: { name: string; type: string }[]) => parseInput(components ? { name: 'x', type, components } : { name: 'x', type }, text);

describe('parseInput', () => {
  it('reads integers in decimal or hex within their type, and refuses others with the range', () => {
    expect(parse('uint8', '255')).toBe(255n);
    expect(parse('uint256', '0xff')).toBe(255n);
    expect(parse('int8', '-128')).toBe(-128n);
    expect(() => parse('uint8', '256')).toThrow(new InputError('uint8 takes 0 to 255'));
    expect(() => parse('uint256', '-1')).toThrow(InputError);
    expect(() => parse('int16', '1.5')).toThrow('int16 takes a whole number (decimal, or hex with 0x)');
  });

  it('reads addresses (any case, lowercased), booleans, bytes and text', () => {
    expect(parse('address', ' 0xAbCdEf0000000000000000000000000000000001 ')).toBe('0xabcdef0000000000000000000000000000000001');
    expect(() => parse('address', '0x12')).toThrow('an address is 0x and 40 hex digits');
    expect(parse('bool', 'false')).toBe(false);
    expect(() => parse('bool', 'yes')).toThrow('bool takes true or false');
    expect(parse('bytes', '0xABcd')).toBe('0xabcd');
    expect(() => parse('bytes', '0xabc')).toThrow('bytes takes 0x and an even number of hex digits');
    expect(() => parse('bytes4', '0x1234')).toThrow('bytes4 takes 0x and exactly 8 hex digits');
    expect(parse('string', ' kept as typed ')).toBe(' kept as typed ');
  });

  it('reads arrays and tuples as JSON, each element by its type', () => {
    expect(parse('uint256[]', '[1, "0x2"]')).toEqual([1n, 2n]);
    expect(() => parse('uint256[2]', '[1]')).toThrow('uint256[2] takes exactly 2 elements, not 1');
    expect(() => parse('uint8[]', '[300]')).toThrow('uint8 takes 0 to 255');
    expect(() => parse('uint8[]', '1, 2')).toThrow('uint8[] takes JSON');
    const components = [{ name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }];
    expect(parse('tuple', '["0x0000000000000000000000000000000000000001", 5]', components)).toEqual(['0x0000000000000000000000000000000000000001', 5n]);
    expect(parse('tuple', '{"to": "0x0000000000000000000000000000000000000001", "amount": "5"}', components)).toEqual({ to: '0x0000000000000000000000000000000000000001', amount: 5n });
  });
});

describe('formatOutput', () => {
  it('writes integers in decimal and nested values as JSON', () => {
    expect(formatOutput(12n)).toBe('12');
    expect(formatOutput('0xab')).toBe('0xab');
    expect(formatOutput(true)).toBe('true');
    expect(formatOutput([1n, ['a', 2n]])).toBe('["1",["a","2"]]');
  });
});
