import fc from 'fast-check';
import { BUILT_IN_CHANNELS, streamKey } from '@chainlens/core';
import { hostileJson, hostileText } from './values.js';

/** One frame a fuzzed client sends: text, or binary bytes. */
export type Frame = { kind: 'text'; text: string } | { kind: 'binary'; bytes: Uint8Array };

/** What the fuzzers know of the server they aim at. */
export interface FrameTargets {
  /** Addresses that exist on the chain (accounts, token contracts), as the node spells them. */
  addresses: readonly string[];
  /** The indexed head while the frames are sent. */
  head: bigint;
  /** Credentials that hold. */
  valid: { token: string; apiKey: string };
}

/** Channel names that look like something: the built-in ones, case variants, object keys, near misses. */
const CHANNEL_NAMES = [
  ...BUILT_IN_CHANNELS.map((channel) => channel.name),
  'BLOCKS',
  'blocks ',
  'block',
  'address_transactions:0x0',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
];

/** Frames whose keys try prototype pollution: sent as raw text, since a JS object literal would not keep `__proto__` as a key. */
const POLLUTING = [
  '{"__proto__":{"polluted":"yes"},"event":"ping"}',
  '{"event":"subscribe","channel":"blocks","__proto__":{"maxSubscriptions":0,"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}},"event":"subscribe","channel":"constructor"}',
  '{"event":"__proto__"}',
  '{"event":"constructor","channel":"__proto__"}',
  '{"event":"unsubscribe","channel":"__proto__","address":"constructor"}',
  '{"event":"auth","token":{"__proto__":{"polluted":"yes"}}}',
  '[{"__proto__":{"polluted":"yes"}}]',
];

function frameOf(value: unknown): Frame {
  return { kind: 'text', text: JSON.stringify(value) ?? 'undefined' };
}

/** A field's value: absent (weight 3), a plausible one, or anything of any type. */
function field<T>(plausible: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 6, arbitrary: plausible }, { weight: 2, arbitrary: hostileJson });
}

/** Drops `undefined` fields, as JSON would. */
function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/**
 * Frames of every kind: well-formed subscribes and unsubscribes (so the limits and replay are
 * reached), each field of every wrong type, unknown events, auth with junk and good
 * credentials, prototype-pollution keys, text that is not JSON, and binary frames.
 */
export function frames(targets: FrameTargets): fc.Arbitrary<Frame> {
  const spelled = fc.oneof(
    fc.constantFrom(...targets.addresses),
    fc.constantFrom(...targets.addresses).map((address) => address.toLowerCase()),
    fc.constantFrom(...targets.addresses).map((address) => address.toUpperCase().replace('0X', '0x')),
  );
  const address = fc.oneof({ weight: 6, arbitrary: spelled }, { weight: 1, arbitrary: fc.constantFrom('0x1234', `0x${'g'.repeat(40)}`, ` ${targets.addresses[0]}`) });
  const head = Number(targets.head);
  const fromBlock = fc.oneof(
    fc.integer({ min: Math.max(0, head - 20), max: head + 3 }),
    fc.integer({ min: Math.max(0, head - 20), max: head + 3 }).map(String),
    fc.constantFrom<unknown>(-1, 0, 0.5, '0x1', '1e3', '', '123456789012345678901', 2 ** 53, '99999999999999999999', '18446744073709551615', '007', 'latest', 'Latest'),
  );
  const channel = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...CHANNEL_NAMES) }, { weight: 1, arbitrary: hostileText });
  // Well-formed subscriptions, so a connection reaches its limit and replays from storage.
  const wellFormed = fc
    .record({ channel: fc.constantFrom(...BUILT_IN_CHANNELS), address: spelled, fromBlock: field(fromBlock) })
    .map(({ channel, address, fromBlock }) => frameOf(defined({ event: 'subscribe', channel: channel.name, address: channel.addressed ? address : undefined, fromBlock })));
  const subscribe = fc.record({ channel: field(channel), address: field(address), fromBlock: field(fromBlock) }).map((record) => frameOf({ event: 'subscribe', ...defined(record) }));
  const unsubscribe = fc.record({ channel: field(channel), address: field(address) }).map((record) => frameOf({ event: 'unsubscribe', ...defined(record) }));
  const token = fc.oneof(fc.constant(targets.valid.token), fc.constantFrom('', 'not.a.jwt', `${targets.valid.token}x`, targets.valid.token.split('.').slice(0, 2).join('.')), hostileText);
  const key = fc.oneof(fc.constant(targets.valid.apiKey), fc.constantFrom('', 'clk_nope', `${targets.valid.apiKey.slice(0, -3)}abc`), hostileText);
  const auth = fc.record({ token: field(token), apiKey: field(key) }).map((record) => frameOf({ event: 'auth', ...defined(record) }));
  const ping = fc.oneof(fc.constant(frameOf({ event: 'ping' })), fc.dictionary(fc.string({ maxLength: 8 }), hostileJson, { maxKeys: 3 }).map((extra) => frameOf({ ...extra, event: 'ping' })));
  const wrongEvent = fc.record({ event: fc.oneof(hostileJson, fc.constantFrom('PING', 'Subscribe', 'pong', 'subscribed', 'error', 'data')), channel: field(channel) }).map((record) => frameOf(defined(record)));
  const junkJson = hostileJson.map(frameOf);
  const text = fc.oneof(hostileText, fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom('{', '{"event":"ping"', "{'event':'ping'}", '{"event":"ping"}{"event":"ping"}', 'ping', '\u0000', ''));
  const binary = fc.oneof(
    fc.uint8Array({ maxLength: 300 }),
    fc.constant(new TextEncoder().encode('{"event":"ping"}')),
    fc.constant(Uint8Array.from([0xff, 0xfe, 0xfd])),
  );
  return fc.oneof(
    { weight: 6, arbitrary: subscribe },
    { weight: 6, arbitrary: wellFormed },
    { weight: 4, arbitrary: unsubscribe },
    { weight: 3, arbitrary: auth },
    { weight: 2, arbitrary: ping },
    { weight: 2, arbitrary: wrongEvent },
    { weight: 2, arbitrary: junkJson },
    { weight: 1, arbitrary: fc.constantFrom(...POLLUTING).map((text): Frame => ({ kind: 'text', text })) },
    { weight: 2, arbitrary: text.map((text): Frame => ({ kind: 'text', text })) },
    { weight: 2, arbitrary: binary.map((bytes): Frame => ({ kind: 'binary', bytes })) },
  );
}

/** The event of the answer a frame must get. */
export type ExpectedReply = 'pong' | 'subscribed' | 'unsubscribed' | 'authenticated' | 'error';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVENTS = new Set(['ping', 'subscribe', 'unsubscribe', 'auth']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const optionalText = (value: unknown) => value === undefined || typeof value === 'string';

/** A JSON number, or as a string `latest` or a decimal block number of 64 bits at most (REST's block parameters' rule). */
function validFromBlock(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0;
  return value === 'latest' || (typeof value === 'string' && /^(0|[1-9]\d{0,19})$/.test(value) && BigInt(value) < 2n ** 64n);
}

/**
 * The protocol as decisions.md states it, as a model of one connection: which answer each frame
 * must get, given the subscriptions the connection holds (updated as the frame is answered).
 */
export class ConnectionModel {
  /** Stream keys this connection is subscribed to. */
  readonly subscriptions = new Set<string>();
  /** The most subscriptions the connection held at once. */
  peak = 0;

  constructor(
    private readonly targets: FrameTargets,
    private readonly limits: { maxSubscriptions: number; maxReplayBlocks: number },
  ) {}

  /** The answer `frame` must get; applies what it changes. */
  expect(frame: Frame): ExpectedReply {
    if (frame.kind === 'binary') return 'error';
    let sent: unknown;
    try {
      sent = JSON.parse(frame.text);
    } catch {
      return 'error';
    }
    if (!isObject(sent) || typeof sent.event !== 'string' || !EVENTS.has(sent.event)) return 'error';
    switch (sent.event) {
      case 'ping':
        return 'pong';
      case 'auth':
        return this.#auth(sent.token, sent.apiKey);
      case 'unsubscribe':
        if (typeof sent.channel !== 'string' || !optionalText(sent.address)) return 'error';
        this.subscriptions.delete(streamKey(sent.channel, (sent.address as string | undefined)?.toLowerCase()));
        return 'unsubscribed';
      default:
        return this.#subscribe(sent);
    }
  }

  #auth(token: unknown, apiKey: unknown): ExpectedReply {
    if (!optionalText(token) || !optionalText(apiKey) || (token === undefined && apiKey === undefined)) return 'error';
    const holds = (token === undefined || token === this.targets.valid.token) && (apiKey === undefined || apiKey === this.targets.valid.apiKey);
    return holds ? 'authenticated' : 'error';
  }

  #subscribe({ channel: name, address, fromBlock }: Record<string, unknown>): ExpectedReply {
    if (typeof name !== 'string' || !optionalText(address) || (fromBlock !== undefined && !validFromBlock(fromBlock))) return 'error';
    const channel = BUILT_IN_CHANNELS.find((candidate) => candidate.name === name);
    if (!channel || channel.addressed !== (address !== undefined)) return 'error';
    if (address !== undefined && !ADDRESS.test(address as string)) return 'error';
    if (fromBlock !== undefined && !channel.replayable) return 'error';
    const key = streamKey(name, (address as string | undefined)?.toLowerCase());
    if (this.subscriptions.has(key)) return 'subscribed';
    if (this.subscriptions.size >= this.limits.maxSubscriptions) return 'error';
    // `latest` replays the head alone: never too far back.
    const from = fromBlock === 'latest' ? this.targets.head : fromBlock === undefined ? undefined : BigInt(fromBlock as string | number);
    if (from !== undefined && this.targets.head - from + 1n > BigInt(this.limits.maxReplayBlocks)) return 'error';
    this.subscriptions.add(key);
    this.peak = Math.max(this.peak, this.subscriptions.size);
    return 'subscribed';
  }
}

/** The byte length a frame has on the wire. */
export function frameBytes(frame: Frame): number {
  return frame.kind === 'binary' ? frame.bytes.length : Buffer.byteLength(frame.text);
}
