import { decodeErrorResult, parseAbi, type Hex } from 'viem';

const STANDARD_ERRORS = parseAbi(['error Error(string reason)', 'error Panic(uint256 code)']);

const PANIC_REASONS: Record<string, string> = {
  '0': 'generic compiler panic',
  '1': 'assertion failed',
  '17': 'arithmetic overflow or underflow',
  '18': 'division or modulo by zero',
  '33': 'invalid enum value',
  '34': 'invalid storage byte array',
  '49': 'pop on empty array',
  '50': 'array index out of bounds',
  '65': 'out of memory',
  '81': 'call to an uninitialized function',
};

/**
 * A readable revert reason from revert data: `Error(string)` gives its text, `Panic(uint256)`
 * its meaning; other data (custom errors) is returned as hex so nothing is lost. With no data
 * the node's own message is the best there is.
 */
export function decodeRevertReason(data: unknown, fallback: string): string {
  if (typeof data !== 'string' || !/^0x[0-9a-fA-F]*$/.test(data) || data.length < 10) return fallback;
  try {
    const decoded = decodeErrorResult({ abi: STANDARD_ERRORS, data: data as Hex });
    if (decoded.errorName === 'Error') return decoded.args[0] as string;
    const code = (decoded.args[0] as bigint).toString();
    return `Panic(0x${BigInt(code).toString(16)}): ${PANIC_REASONS[code] ?? 'unknown panic code'}`;
  } catch {
    return data.toLowerCase();
  }
}
