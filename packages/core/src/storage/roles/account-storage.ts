import type { ApiKeyCap, ApiKeyChanges, ApiKeyWithOwner, StoredApiKey, StoredUser, UserChanges } from '../account-records.js';

/**
 * Users and API keys. They are not chain data: `rollbackTo` MUST leave them alone. Records
 * come back equal (`toEqual`) to what was written; array fields are stored in the order given.
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface AccountStorage {
  /**
   * Stores a new user. Resolves `false`, writing nothing, when a user with the same `email`
   * exists; two concurrent calls with one email MUST NOT both succeed.
   */
  createUser(user: StoredUser): Promise<boolean>;
  getUserById(id: string): Promise<StoredUser | null>;
  /** Exact match on the canonical email; any text (NUL, lone surrogates) is a miss, never an error. */
  getUserByEmail(email: string): Promise<StoredUser | null>;
  /** Applies `changes`; resolves the updated user, or `null` (nothing written) for an unknown id. */
  updateUser(id: string, changes: UserChanges): Promise<StoredUser | null>;
  /**
   * Stores a new API key (the caller guarantees a fresh id and hash; a duplicate MUST throw) and
   * resolves `true`. With `cap`, only while the key's owner holds fewer than `cap.maxLive` live
   * keys: otherwise it resolves `false`, writing nothing. Concurrent calls for one owner MUST NOT
   * together pass the cap (each counts the keys the others stored).
   */
  createApiKey(key: StoredApiKey, cap?: ApiKeyCap): Promise<boolean>;
  /** The key whose `keyHash` is exactly `keyHash`, revoked and expired ones included. */
  getApiKeyByHash(keyHash: string): Promise<StoredApiKey | null>;
  /** {@link getApiKeyByHash} and its owner in one round trip: what every keyed request needs. */
  getApiKeyWithOwner(keyHash: string): Promise<ApiKeyWithOwner | null>;
  /** Every key of `userId`, revoked ones included, newest first (`createdAt`, then `id`, descending). */
  listApiKeys(userId: string): Promise<StoredApiKey[]>;
  /**
   * Applies `changes` to key `id`; with `ownerId`, only when the key belongs to that user.
   * Resolves the updated key, or `null` (nothing written) when no key matches.
   */
  updateApiKey(id: string, changes: ApiKeyChanges, ownerId?: string): Promise<StoredApiKey | null>;
}
