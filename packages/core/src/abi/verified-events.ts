import { toEventSelector, type AbiEvent } from 'viem';
import type { Hex, StoredVerifiedContract } from '../storage/index.js';
import { type EventResolver, resolveStandardEvent } from './decode-log.js';
import { shapeKey } from './standard-events.js';

/** A verified contract's name and its ABI's events by shape (selector and topic count). */
interface VerifiedEvents {
  name: string;
  events: Map<string, AbiEvent>;
}

/**
 * An {@link EventResolver} that looks a log's event up in its emitter's verified ABI first, then
 * in `fallback` (the standard ABIs). It is synchronous, so the caller reads the verified records
 * of an answer's log addresses first, in one `getVerifiedContracts` call. A verified emitter's
 * name is the `contractName` of its logs, whichever ABI decoded them. `delegations` maps accounts
 * that delegate by EIP-7702 to their targets, whose verified events then decode the accounts'
 * logs (with no `contractName`: the account is no contract).
 *
 * @example
 * const logs = await storage.getTransactionLogs(hash);
 * const resolve = verifiedEventResolver(await storage.getVerifiedContracts([...new Set(logs.map((log) => log.address))]));
 * const decoded = logs.map((log) => decodeLog(log, resolve));
 */
export function verifiedEventResolver(
  contracts: readonly StoredVerifiedContract[],
  fallback: EventResolver = resolveStandardEvent,
  delegations: ReadonlyMap<Hex, Hex> = new Map(),
): EventResolver {
  const byAddress = new Map<Hex, VerifiedEvents>(contracts.map((contract) => [contract.address, verifiedEvents(contract)]));
  return (log) => {
    const verified = byAddress.get(log.address);
    if (!verified) {
      // An account that delegates by EIP-7702 runs its target's code, so it emits the target's events.
      const target = delegations.get(log.address);
      const delegated = target === undefined ? undefined : byAddress.get(target);
      const selector = log.topics[0];
      const event = delegated && selector !== undefined ? delegated.events.get(shapeKey(selector, log.topics.length)) : undefined;
      return event ? { event, contractName: null } : fallback(log);
    }
    const selector = log.topics[0];
    const event = selector === undefined ? undefined : verified.events.get(shapeKey(selector, log.topics.length));
    if (event) return { event, contractName: verified.name };
    const standard = fallback(log);
    return standard && { ...standard, contractName: verified.name };
  };
}

function verifiedEvents({ name, abi }: StoredVerifiedContract): VerifiedEvents {
  const events = new Map<string, AbiEvent>();
  for (const entry of abi) {
    if (!isSelectorEvent(entry)) continue;
    events.set(shapeKey(toEventSelector(entry), 1 + entry.inputs.filter((input) => input.indexed).length), entry);
  }
  return { name, events };
}

/** An ABI event with a selector topic: an anonymous event's logs cannot be told apart by their topics. */
function isSelectorEvent(entry: unknown): entry is AbiEvent {
  if (typeof entry !== 'object' || entry === null) return false;
  const event = entry as Partial<AbiEvent>;
  return event.type === 'event' && event.anonymous !== true && typeof event.name === 'string' && Array.isArray(event.inputs);
}
