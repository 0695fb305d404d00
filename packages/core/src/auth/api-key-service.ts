import { randomUUID, timingSafeEqual } from 'node:crypto';
import { ApiKeyNotFoundError, ForbiddenError, InvalidApiKeyError } from '../errors/index.js';
import type { Storage, StoredApiKey } from '../storage/index.js';
import { checkApiKey, generateApiKey } from './api-key-format.js';
import type { Principal } from './principal.js';
import { scopesOf, type Scope } from './scopes.js';

/** A key as its owner sees it in a list: never the secret or its hash. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** The key's first characters, to tell keys apart. */
  prefix: string;
  scopes: string[];
  /** ISO 8601, or `null` for a key that does not expire. */
  expiresAt: string | null;
  isActive: boolean;
  /** A per-minute limit an admin set, or `null`. */
  rateLimitPerMinute: number | null;
  createdAt: string;
}

/** The creation answer: the record plus the secret, shown this once. */
export interface CreatedApiKeyRecord extends ApiKeyRecord {
  key: string;
}

/** What a caller asks for when creating a key, already validated by the route. */
export interface ApiKeyRequest {
  name: string;
  description?: string;
  scopes: Scope[];
  expiresAt?: Date;
}

/** API keys: creation, listing and revocation by their owner, and authentication of requests. */
export class ApiKeyService {
  constructor(
    private readonly storage: Storage,
    private readonly now: () => number,
  ) {}

  /** Creates a key for the caller; asking for a scope the caller does not hold is {@link ForbiddenError}. */
  async create(principal: Principal, request: ApiKeyRequest): Promise<CreatedApiKeyRecord> {
    const held = scopesOf(principal);
    if (!request.scopes.every((scope) => held.has(scope))) throw new ForbiddenError();
    const { key, keyHash, prefix } = generateApiKey();
    const stored: StoredApiKey = {
      id: randomUUID(),
      userId: principal.user.id,
      name: request.name,
      description: request.description ?? null,
      keyHash,
      prefix,
      scopes: [...new Set(request.scopes)].sort(),
      expiresAt: request.expiresAt ?? null,
      isActive: true,
      rateLimitPerMinute: null,
      createdAt: new Date(this.now()),
    };
    await this.storage.createApiKey(stored);
    return { ...formatApiKey(stored), key };
  }

  /** The caller's keys, newest first, revoked ones included. */
  async list(principal: Principal): Promise<ApiKeyRecord[]> {
    return (await this.storage.listApiKeys(principal.user.id)).map(formatApiKey);
  }

  /** Revokes one of the caller's keys; anyone else's, or an unknown id, is {@link ApiKeyNotFoundError}. */
  async revoke(principal: Principal, id: string): Promise<ApiKeyRecord> {
    const key = await this.storage.updateApiKey(id, { isActive: false }, principal.user.id);
    if (!key) throw new ApiKeyNotFoundError();
    return formatApiKey(key);
  }

  /** Sets or clears (`null`) a key's own per-minute limit (an admin's act). */
  async setRateLimit(id: string, rateLimitPerMinute: number | null): Promise<ApiKeyRecord> {
    const key = await this.storage.updateApiKey(id, { rateLimitPerMinute });
    if (!key) throw new ApiKeyNotFoundError();
    return formatApiKey(key);
  }

  /**
   * The caller an `X-API-Key` proves. Malformed keys and bad checksums are refused before any
   * lookup; unknown, revoked and expired keys, and keys of deactivated users, after it.
   */
  async authenticate(secret: string): Promise<Principal> {
    const keyHash = checkApiKey(secret);
    if (keyHash === null) throw new InvalidApiKeyError();
    const found = await this.storage.getApiKeyWithOwner(keyHash);
    if (!found) throw new InvalidApiKeyError();
    const { key, owner } = found;
    if (!sameHash(key.keyHash, keyHash) || !key.isActive) throw new InvalidApiKeyError();
    if (key.expiresAt !== null && key.expiresAt.getTime() <= this.now()) throw new InvalidApiKeyError();
    if (!owner?.isActive) throw new InvalidApiKeyError();
    return { kind: 'apiKey', user: owner, key };
  }
}

/** Constant-time equality of two hex hashes. */
function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function formatApiKey(key: StoredApiKey): ApiKeyRecord {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: [...key.scopes],
    expiresAt: key.expiresAt?.toISOString() ?? null,
    isActive: key.isActive,
    rateLimitPerMinute: key.rateLimitPerMinute,
    createdAt: key.createdAt.toISOString(),
  };
}
