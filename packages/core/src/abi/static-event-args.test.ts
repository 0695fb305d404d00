import { decodeEventLog, encodeAbiParameters, encodeEventTopics, parseAbiItem, type AbiEvent, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { staticEventArgs } from './static-event-args.js';

const MIXED = parseAbiItem('event Mixed(address indexed who, int16 indexed delta, bool flag, bytes4 tag, uint8 small, int256 big)');
const UNNAMED = parseAbiItem('event Unnamed(address indexed, uint256)');
const DYNAMIC = parseAbiItem('event Dynamic(address indexed who, string note)');
const WORD = (hex: string) => `0x${hex.padStart(64, '0')}` as Hex;

/** What the strict ABI decoder makes of the log, shown as the events routes show arguments; `null` when it refuses it. */
function reference(event: AbiEvent, topics: Hex[], data: Hex): Record<string, string> | null {
  try {
    const { args } = decodeEventLog({ abi: [event], topics: topics as [Hex, ...Hex[]], data, strict: true });
    const values = event.inputs.map((input, i) => (Array.isArray(args) ? args[i] : (args as Record<string, unknown>)[input.name!]));
    return Object.fromEntries(event.inputs.map((input, i) => [input.name || `arg${i}`, typeof values[i] === 'string' ? (values[i] as string).toLowerCase() : String(values[i])]));
  } catch {
    return null;
  }
}

describe('staticEventArgs', () => {
  const who = '0x00000000000000000000000000000000000000AB';
  const topics = encodeEventTopics({ abi: [MIXED], args: { who, delta: -300 } }) as Hex[];
  const data = encodeAbiParameters(
    [{ type: 'bool' }, { type: 'bytes4' }, { type: 'uint8' }, { type: 'int256' }],
    [true, '0xdeadbeef', 255, -(2n ** 200n)],
  );

  it('reads addresses, signed and unsigned integers, bools and fixed bytes as the ABI decoder does, addresses in lowercase', () => {
    const args = staticEventArgs(MIXED, { topics, data });
    expect(args).toEqual({ who: who.toLowerCase(), delta: '-300', flag: 'true', tag: '0xdeadbeef', small: '255', big: (-(2n ** 200n)).toString() });
    expect(args).toEqual(reference(MIXED, topics, data));
  });

  it('agrees with the strict decoder on unusual logs: dirty address words, extra topics and data, unnamed inputs', () => {
    const dirty = [topics[0]!, `0xffffffffffffffffffffffff${'cd'.repeat(20)}` as Hex, topics[2]!];
    const unnamedTopics = [encodeEventTopics({ abi: [UNNAMED] })[0] as Hex, WORD('ef')];
    const cases: [AbiEvent, Hex[], Hex][] = [
      [MIXED, dirty, data],
      [MIXED, [...topics, WORD('1')], `${data}${'00'.repeat(32)}`],
      [UNNAMED, unnamedTopics, WORD('2a')],
    ];
    for (const [event, logTopics, logData] of cases) expect(staticEventArgs(event, { topics: logTopics, data: logData })).toEqual(reference(event, logTopics, logData));
  });

  it('refuses what the strict decoder refuses: too few topics, too little data, a bool word other than 0 or 1', () => {
    const badBool = `0x${'00'.repeat(31)}02${data.slice(66)}` as Hex;
    for (const [logTopics, logData] of [
      [topics.slice(0, 2), data],
      [topics, data.slice(0, -64) as Hex],
      [topics, badBool],
    ] as const) {
      expect(reference(MIXED, logTopics, logData)).toBeNull();
      expect(staticEventArgs(MIXED, { topics: logTopics, data: logData })).toBeNull();
    }
  });

  it('leaves an event with a dynamic input to the full decoder', () => {
    expect(staticEventArgs(DYNAMIC, { topics: encodeEventTopics({ abi: [DYNAMIC], args: { who } }) as Hex[], data: encodeAbiParameters([{ type: 'string' }], ['hi']) })).toBeUndefined();
  });
});
