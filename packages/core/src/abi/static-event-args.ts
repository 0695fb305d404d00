import type { AbiEvent, AbiParameter } from 'viem';
import type { StoredLog } from '../storage/index.js';

/** One 32-byte word (64 lowercase hex digits, no `0x`) as an argument's text; `undefined` when the word is no value of the type. */
type WordReader = (word: string) => string | undefined;

const TWO_256 = 1n << 256n;

/**
 * Readers of the static types events mostly carry, reading a word as the ABI decoder does (an
 * address is its last 20 bytes, an integer the whole word, fixed bytes its first bytes; only a
 * bool is checked); every other type is left to the decoder.
 */
function readerOf(type: string): WordReader | null {
  if (type === 'address') return (word) => `0x${word.slice(24)}`;
  if (type === 'bool') return (word) => (/^0{63}[01]$/.test(word) ? String(word.endsWith('1')) : undefined);
  if (/^uint\d*$/.test(type)) return (word) => BigInt(`0x${word}`).toString();
  if (/^int\d*$/.test(type)) {
    return (word) => {
      const raw = BigInt(`0x${word}`);
      return (raw >= TWO_256 >> 1n ? raw - TWO_256 : raw).toString();
    };
  }
  const bytes = /^bytes(\d+)$/.exec(type);
  if (bytes) {
    const digits = Number(bytes[1]) * 2;
    return (word) => `0x${word.slice(0, digits)}`;
  }
  return null;
}

/** An event's inputs as readers, kept per event object; `null` when any input is of another type. */
const readers = new WeakMap<AbiEvent, WordReader[] | null>();

function readersOf(event: AbiEvent): WordReader[] | null {
  let found = readers.get(event);
  if (found === undefined) {
    const all = event.inputs.map((input: AbiParameter) => readerOf(input.type));
    found = all.every((reader) => reader !== null) ? (all as WordReader[]) : null;
    readers.set(event, found);
  }
  return found;
}

/**
 * The arguments of `log` as `event` (whose selector it carries) by name, as the events routes
 * show them (decimal numbers, lowercase hex), read straight from its words when every input is
 * an address, bool, integer or fixed-size bytes: the common events, without the ABI decoder's
 * checksummed addresses (a keccak each, lowercased again at once). `undefined` when the event has
 * other types (the caller decodes it in full); `null` when the strict decoder would refuse the
 * log: fewer topics than indexed inputs, data too short, or a bool word that is neither 0 nor 1.
 */
export function staticEventArgs(event: AbiEvent, log: Pick<StoredLog, 'topics' | 'data'>): Record<string, string> | null | undefined {
  const read = readersOf(event);
  if (read === null) return undefined;
  const indexed = event.inputs.filter((input) => input.indexed).length;
  if (log.topics.length < indexed + 1) return null;
  const data = log.data.slice(2);
  if (data.length < (event.inputs.length - indexed) * 64) return null;
  const args: Record<string, string> = {};
  let topic = 1;
  let offset = 0;
  for (const [index, input] of event.inputs.entries()) {
    let word: string;
    if (input.indexed) {
      word = log.topics[topic++]!.slice(2).toLowerCase();
    } else {
      word = data.slice(offset, offset + 64).toLowerCase();
      offset += 64;
    }
    const value = read[index]!(word);
    if (value === undefined) return null;
    args[input.name || `arg${index}`] = value;
  }
  return args;
}
