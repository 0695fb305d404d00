import type { Hex } from '../storage/index.js';

/** An ABI-encoded address is a 32-byte word whose first 12 bytes are zero. */
const ADDRESS_WORD = /^0x0{24}[0-9a-f]{40}$/;

/**
 * The address an indexed topic or a data word holds, or `null` when the word is no address
 * (then the log is not the standard event it looks like).
 */
export function addressOfWord(word: Hex | undefined): Hex | null {
  return word !== undefined && ADDRESS_WORD.test(word) ? `0x${word.slice(26)}` : null;
}
