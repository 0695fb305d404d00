/**
 * An ABI-decoded value as the API shows it: addresses and bytes in lower-case hex, integers and
 * booleans as decimal text, tuples and arrays as JSON (big integers in it as decimal strings, hex
 * in lower case there too).
 */
export function abiValueText(value: unknown): string {
  if (typeof value === 'string') return value.startsWith('0x') ? value.toLowerCase() : value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : typeof v === 'string' && v.startsWith('0x') ? v.toLowerCase() : v));
}
