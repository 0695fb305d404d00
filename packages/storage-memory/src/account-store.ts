import type { AccountStorage, ApiKeyCap, ApiKeyChanges, ApiKeyWithOwner, StoredApiKey, StoredUser, UserChanges } from '@chainlens/core';

/**
 * Users and API keys in maps. Unlike chain records these change after they are written, so
 * they cannot be handed out frozen: every record is copied on the way in and on the way out
 * (arrays and Dates included), and a caller changing one changes nothing stored.
 */
export class AccountStore implements AccountStorage {
  readonly #users = new Map<string, StoredUser>();
  readonly #userIdsByEmail = new Map<string, string>();
  readonly #keys = new Map<string, StoredApiKey>();
  readonly #keyIdsByHash = new Map<string, string>();
  /** Each user's key ids, so listing one user's keys never walks everyone's. */
  readonly #keyIdsByUser = new Map<string, string[]>();

  /** Stores a copy of `user`; `false` when its email is taken. A taken id is a caller bug and throws. */
  async createUser(user: StoredUser): Promise<boolean> {
    if (this.#userIdsByEmail.has(user.email)) return false;
    if (this.#users.has(user.id)) throw new Error(`createUser: user ${user.id} is already stored`);
    this.#users.set(user.id, copyUser(user));
    this.#userIdsByEmail.set(user.email, user.id);
    return true;
  }

  async getUserById(id: string): Promise<StoredUser | null> {
    return this.#user(id);
  }

  async getUserByEmail(email: string): Promise<StoredUser | null> {
    const id = this.#userIdsByEmail.get(email);
    return id === undefined ? null : this.#user(id);
  }

  #user(id: string): StoredUser | null {
    const user = this.#users.get(id);
    return user ? copyUser(user) : null;
  }

  async updateUser(id: string, { roles, isActive }: UserChanges): Promise<StoredUser | null> {
    const user = this.#users.get(id);
    if (!user) return null;
    const updated = copyUser({ ...user, roles: roles ?? user.roles, isActive: isActive ?? user.isActive });
    this.#users.set(id, updated);
    return copyUser(updated);
  }

  /**
   * Stores a copy of `key`; throws, storing nothing, when its id or hash is taken, and stores
   * nothing (`false`) when its owner already holds `cap.maxLive` live keys. Synchronous, so no
   * other call can store a key between the count and the write.
   */
  async createApiKey(key: StoredApiKey, cap?: ApiKeyCap): Promise<boolean> {
    if (this.#keys.has(key.id)) throw new Error(`createApiKey: key ${key.id} is already stored`);
    if (this.#keyIdsByHash.has(key.keyHash)) throw new Error(`createApiKey: a key with hash ${key.keyHash} is already stored`);
    if (cap && this.#liveKeys(key.userId, cap.now) >= cap.maxLive) return false;
    this.#keys.set(key.id, copyApiKey(key));
    this.#keyIdsByHash.set(key.keyHash, key.id);
    const ids = this.#keyIdsByUser.get(key.userId);
    if (ids) ids.push(key.id);
    else this.#keyIdsByUser.set(key.userId, [key.id]);
    return true;
  }

  /** How many of `userId`'s keys are active and unexpired at `now`. */
  #liveKeys(userId: string, now: Date): number {
    const ids = this.#keyIdsByUser.get(userId) ?? [];
    return ids.filter((id) => {
      const key = this.#keys.get(id)!;
      return key.isActive && (key.expiresAt === null || key.expiresAt > now);
    }).length;
  }

  async getApiKeyByHash(keyHash: string): Promise<StoredApiKey | null> {
    return this.#keyByHash(keyHash);
  }

  async getApiKeyWithOwner(keyHash: string): Promise<ApiKeyWithOwner | null> {
    const key = this.#keyByHash(keyHash);
    return key && { key, owner: this.#user(key.userId) };
  }

  #keyByHash(keyHash: string): StoredApiKey | null {
    const id = this.#keyIdsByHash.get(keyHash);
    return id === undefined ? null : copyApiKey(this.#keys.get(id)!);
  }

  /** `userId`'s keys, newest first: by `createdAt`, then `id`, descending. */
  async listApiKeys(userId: string): Promise<StoredApiKey[]> {
    const keys = (this.#keyIdsByUser.get(userId) ?? []).map((id) => this.#keys.get(id)!);
    return keys.sort(newestFirst).map(copyApiKey);
  }

  async updateApiKey(id: string, { isActive, rateLimitPerMinute }: ApiKeyChanges, ownerId?: string): Promise<StoredApiKey | null> {
    const key = this.#keys.get(id);
    if (!key || (ownerId !== undefined && key.userId !== ownerId)) return null;
    const updated = copyApiKey({
      ...key,
      isActive: isActive ?? key.isActive,
      // `null` is a change (it clears the limit); only an absent field leaves it.
      rateLimitPerMinute: rateLimitPerMinute === undefined ? key.rateLimitPerMinute : rateLimitPerMinute,
    });
    this.#keys.set(id, updated);
    return copyApiKey(updated);
  }
}

function copyUser(user: StoredUser): StoredUser {
  return { ...user, roles: [...user.roles], createdAt: new Date(user.createdAt.getTime()) };
}

function copyApiKey(key: StoredApiKey): StoredApiKey {
  return {
    ...key,
    scopes: [...key.scopes],
    expiresAt: key.expiresAt && new Date(key.expiresAt.getTime()),
    createdAt: new Date(key.createdAt.getTime()),
  };
}

/**
 * Descending by `createdAt`, then `id`. Ids compare as strings: for lowercase UUIDs that is
 * the byte order Postgres sorts `uuid` by, so both backends list ties alike.
 */
function newestFirst(a: StoredApiKey, b: StoredApiKey): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
