import { LRUCache } from 'lru-cache';
import type { Principal } from '../../auth/principal.js';
import type { Revocation } from '../../auth/revocation.js';

/** Options of {@link KeptPrincipals}. */
export interface KeptPrincipalsOptions {
  max: number;
  ttlMs: number;
  /**
   * The part of a credential it is kept under; default the whole. A long credential is hashed
   * whole on every lookup as a map key, so one that ends in enough random characters (a token's
   * signature) can be kept under those instead: the whole text is still compared.
   */
  keyOf?: (credential: string) => string;
}

/** A kept caller and the whole credential it was verified with. */
interface Kept<P> {
  credential: string;
  principal: P;
}

/**
 * Callers found valid lately, by the credential they sent (an API key's hash, a bearer token), so
 * a repeated credential is answered without a storage read or a promise. Each is kept at most
 * `ttlMs`, which bounds only changes nobody is told of (a row written directly, a lost bus
 * notice): {@link forget} drops the named ones at once. Expiry is the caller's to judge on every
 * request, since a kept principal must not outlive its credential.
 */
export class KeptPrincipals<P extends Principal> {
  readonly #kept: LRUCache<string, Kept<P>>;
  readonly #keyOf: (credential: string) => string;
  /** Bumped by {@link forget}: a storage read that began before it is not kept. */
  #generation = 0;

  constructor(options: KeptPrincipalsOptions) {
    this.#kept = new LRUCache<string, Kept<P>>({ max: options.max, ttl: options.ttlMs });
    this.#keyOf = options.keyOf ?? ((credential) => credential);
  }

  /** What a storage read starting now hands to {@link keep}. */
  get generation(): number {
    return this.#generation;
  }

  /** The caller kept for exactly `credential`, if any. */
  get(credential: string): P | undefined {
    const kept = this.#kept.get(this.#keyOf(credential));
    return kept !== undefined && kept.credential === credential ? kept.principal : undefined;
  }

  /** Keeps `principal`, unless a change was heard since `generation` (it may postdate the read). */
  keep(credential: string, principal: P, generation: number): void {
    if (generation === this.#generation) this.#kept.set(this.#keyOf(credential), { credential, principal });
  }

  delete(credential: string): void {
    const key = this.#keyOf(credential);
    if (this.#kept.get(key)?.credential === credential) this.#kept.delete(key);
  }

  /** Drops the named key, or every credential of the named user. */
  forget(change: Revocation): void {
    this.#generation++;
    const named: string[] = [];
    for (const [key, { principal }] of this.#kept.entries()) {
      if ('keyId' in change ? principal.kind === 'apiKey' && principal.key.id === change.keyId : principal.user.id === change.userId) named.push(key);
    }
    for (const key of named) this.#kept.delete(key);
  }
}
