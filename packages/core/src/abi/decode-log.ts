import { decodeEventLog, toEventSignature, type AbiEvent, type Hex } from 'viem';
import type { StoredLog } from '../storage/index.js';
import { STANDARD_EVENTS_BY_SHAPE, shapeKey } from './standard-events.js';
import { staticEventArgs } from './static-event-args.js';
import { abiValueText } from './abi-value.js';

/** A log decoded with a known ABI, with its position so clients can join it back (services add the emitter's label). */
export interface DecodedLog {
  /** `null` when no known ABI describes the event. */
  eventName: string | null;
  /** Canonical signature, e.g. `Transfer(address,address,uint256)`; `null` when unknown. */
  eventSignature: string | null;
  parameters: Record<string, string>;
  contractAddress: string;
  /** The contract's name where ChainLens knows it (verified source), else `null`. */
  contractName: string | null;
  logIndex: string;
}

/** Finds the ABI event for a log, and the emitter's name where known (see `verifiedEventResolver`). */
export type EventResolver = (log: StoredLog) => { event: AbiEvent; contractName: string | null } | null;

/** Resolves the token standards' events by selector and topic count. */
export const resolveStandardEvent: EventResolver = (log) => {
  const selector = log.topics[0];
  if (!selector) return null;
  const event = STANDARD_EVENTS_BY_SHAPE.get(shapeKey(selector, log.topics.length));
  return event ? { event, contractName: null } : null;
};

/** Decodes a log with the event the resolver finds; undecodable logs keep `eventName: null`. */
export function decodeLog(log: StoredLog, resolve: EventResolver = resolveStandardEvent): DecodedLog {
  const base = { contractAddress: log.address, logIndex: String(log.logIndex) };
  const found = resolve(log);
  if (found) {
    const parameters = parametersOf(found.event, log);
    if (parameters !== null) return { eventName: found.event.name, eventSignature: signatureOf(found.event), parameters, contractName: found.contractName, ...base };
  }
  return { eventName: null, eventSignature: null, parameters: {}, contractName: null, ...base };
}

/** The log's arguments as `event`, by name; `null` when it does not decode as one (same selector, other encoding: a non-standard contract). */
function parametersOf(event: AbiEvent, log: StoredLog): Record<string, string> | null {
  const read = staticEventArgs(event, log);
  if (read !== undefined) return read;
  try {
    const decoded = decodeEventLog({ abi: [event], topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: true });
    return stringifyArgs(event, decoded.args as unknown);
  } catch {
    return null;
  }
}

/** Canonical signatures, computed once per event object (the standard and verified ABIs are long-lived). */
const signatures = new WeakMap<AbiEvent, string>();

function signatureOf(event: AbiEvent): string {
  let signature = signatures.get(event);
  if (signature === undefined) {
    signature = toEventSignature(event);
    signatures.set(event, signature);
  }
  return signature;
}

function stringifyArgs(event: AbiEvent, args: unknown): Record<string, string> {
  const parameters: Record<string, string> = {};
  event.inputs.forEach((input, index) => {
    const name = input.name || `arg${index}`;
    const value = Array.isArray(args) ? args[index] : (args as Record<string, unknown>)[name];
    parameters[name] = abiValueText(value);
  });
  return parameters;
}
