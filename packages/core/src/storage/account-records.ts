/**
 * Records of people and their credentials, as storage keeps them. Ids are lowercase UUIDs;
 * times are `Date`s with millisecond precision (what a JS `Date` holds, so they round-trip).
 */

/** A registered user. */
export interface StoredUser {
  id: string;
  /** Canonical form: trimmed and lowercased; unique across users. */
  email: string;
  name: string;
  /** The password's argon2id PHC string; never leaves core. */
  passwordHash: string;
  /** Distinct role names, sorted (`user`, `premium`, `admin`). */
  roles: string[];
  isActive: boolean;
  createdAt: Date;
}

/** The fields an update of a user may change. */
export interface UserChanges {
  roles?: string[];
  isActive?: boolean;
}

/** An API key: only a hash of its secret is kept. */
export interface StoredApiKey {
  id: string;
  /** Owner's user id. */
  userId: string;
  name: string;
  description: string | null;
  /** SHA-256 of the whole secret, 64 lowercase hex digits; unique across keys. */
  keyHash: string;
  /** The secret's first characters, shown so people can tell their keys apart. */
  prefix: string;
  /** Distinct scope names, sorted (`admin`, `read`, `write`). */
  scopes: string[];
  expiresAt: Date | null;
  /** `false` once revoked. */
  isActive: boolean;
  /** A per-minute figure an admin set for this key (its share of its owner's allowance, or a grant beyond it), else `null`. */
  rateLimitPerMinute: number | null;
  createdAt: Date;
}

/** A cap on one user's live API keys, checked by {@link Storage.createApiKey} as it stores a new one. */
export interface ApiKeyCap {
  /** Live keys the owner may hold, the new one included. */
  maxLive: number;
  /** A key is live while active and unexpired at this time (`expiresAt` null or after it). */
  now: Date;
}

/** The fields an update of an API key may change. */
export interface ApiKeyChanges {
  isActive?: boolean;
  rateLimitPerMinute?: number | null;
}

/** One change to a counter of {@link Storage.hitCounters}. */
export interface CounterHit {
  /** Names the counter, window included (e.g. `rate:minute:ip:127.0.0.1:29678400`). */
  key: string;
  /** Added to the counter; `0` reads it. A non-negative integer. */
  amount: number;
  /** Unix milliseconds after which the counter is gone; later hits start it again from 0. */
  expiresAt: number;
}

/** A key found by its hash, with its owner (`null` when no such user is stored). */
export interface ApiKeyWithOwner {
  key: StoredApiKey;
  owner: StoredUser | null;
}
