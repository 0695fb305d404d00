import { isDeepStrictEqual } from 'node:util';
import { canonicalEmail, type Hex, type Storage } from '@chainlens/core';

/** Everything fuzzed writes could reach, by a key naming the record (`user:<id>`, `email:<e>`, …). */
export type StoredState = Map<string, unknown>;

/** The records the fuzz may touch: whom and what the generated requests name. */
export interface StateScope {
  /** Users whose record and keys are read. */
  userIds: string[];
  /** Emails sent to register or log in. */
  emails: string[];
  /** Addresses sent to metadata and verification routes. */
  addresses: string[];
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Reads every record `scope` names, through the storage methods alone. */
export async function readStoredState(storage: Storage, scope: StateScope): Promise<StoredState> {
  const state: StoredState = new Map();
  for (const id of scope.userIds) {
    state.set(`user:${id}`, await storage.getUserById(id));
    state.set(`keys:${id}`, await storage.listApiKeys(id));
  }
  for (const email of new Set(scope.emails.map(safeCanonical))) state.set(`email:${email}`, await storage.getUserByEmail(email));
  for (const address of new Set(scope.addresses.filter((text) => ADDRESS.test(text)).map((text) => text.toLowerCase() as Hex))) {
    state.set(`metadata:${address}`, await storage.getMetadataProfile(address));
    state.set(`verified:${address}`, await storage.getVerifiedContract(address));
  }
  state.set('verified:*', (await storage.listVerifiedAddresses()).sort());
  state.set('chain', await storage.getChainTotals());
  return state;
}

/** The canonical form storage keys an email by (any text, even one `canonicalEmail` cannot take). */
export function safeCanonical(email: string): string {
  try {
    return canonicalEmail(email);
  } catch {
    return email;
  }
}

/** Keys whose record differs between `before` and `after`. */
export function changedKeys(before: StoredState, after: StoredState): string[] {
  return [...after.keys()].filter((key) => !isDeepStrictEqual(before.get(key), after.get(key)));
}
