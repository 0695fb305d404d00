import { LRUCache } from 'lru-cache';
import type { Principal } from '../../auth/principal.js';
import type { Revocation } from '../../auth/revocation.js';

/**
 * Callers found valid lately, by the credential they sent (an API key's hash, a bearer token), so
 * a repeated credential is answered without a storage read or a promise. Each is kept at most
 * `ttlMs`, which bounds only changes nobody is told of (a row written directly, a lost bus
 * notice): {@link forget} drops the named ones at once. Expiry is the caller's to judge on every
 * request, since a kept principal must not outlive its credential.
 */
export class KeptPrincipals<P extends Principal> {
  readonly #kept: LRUCache<string, P>;
  /** Bumped by {@link forget}: a storage read that began before it is not kept. */
  #generation = 0;

  constructor(options: { max: number; ttlMs: number }) {
    this.#kept = new LRUCache<string, P>({ max: options.max, ttl: options.ttlMs });
  }

  /** What a storage read starting now hands to {@link keep}. */
  get generation(): number {
    return this.#generation;
  }

  get(credential: string): P | undefined {
    return this.#kept.get(credential);
  }

  /** Keeps `principal`, unless a change was heard since `generation` (it may postdate the read). */
  keep(credential: string, principal: P, generation: number): void {
    if (generation === this.#generation) this.#kept.set(credential, principal);
  }

  delete(credential: string): void {
    this.#kept.delete(credential);
  }

  /** Drops the named key, or every credential of the named user. */
  forget(change: Revocation): void {
    this.#generation++;
    const named: string[] = [];
    for (const [credential, principal] of this.#kept.entries()) {
      if ('keyId' in change ? principal.kind === 'apiKey' && principal.key.id === change.keyId : principal.user.id === change.userId) named.push(credential);
    }
    for (const credential of named) this.#kept.delete(credential);
  }
}
