import { randomUUID, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { ApiKeyLimitError, ApiKeyNotFoundError, ForbiddenError, InvalidApiKeyError } from '../../errors/index.js';
import type { AccountStorage, StoredApiKey } from '../../storage/index.js';
import { checkApiKey, generateApiKey } from '../../auth/api-key-format.js';
import { KeptPrincipals } from './kept-principals.js';
import type { Principal } from '../../auth/principal.js';
import type { Revocation } from '../../auth/revocation.js';
import { scopesOf, type Scope } from '../../auth/scopes.js';
import type { z } from 'zod';
import type { apiKeyRecordSchema, createdApiKeyRecordSchema } from '../../records/account-record-schemas.js';

/** A key as its owner sees it in a list: never the secret or its hash. */
export type ApiKeyRecord = z.infer<typeof apiKeyRecordSchema>;

/** The creation answer: the record plus the secret, shown this once. */
export type CreatedApiKeyRecord = z.infer<typeof createdApiKeyRecordSchema>;

/** What a caller asks for when creating a key, already validated by the route. */
export interface ApiKeyRequest {
  name: string;
  description?: string;
  scopes: Scope[];
  expiresAt?: Date;
}

/** Options of {@link ApiKeyService}. */
export interface ApiKeyServiceOptions {
  /** Current time in milliseconds. */
  now: () => number;
  /** Live keys (active, unexpired) one user may hold (`auth.maxApiKeysPerUser`). */
  maxLiveKeys: number;
  /**
   * Told when a key is revoked or its own limit changes, so connections open on it are checked
   * again and other instances forget it; awaited before the change is answered, so a notice to
   * the cluster is on its way first.
   */
  onRevoked?: (revocation: Revocation) => void | Promise<void>;
}

/**
 * How long a verified key is trusted without reading storage again. Changes made through the
 * explorer (revocation, deactivation, roles, a key's limit) drop it at once here and, through the
 * bus, on every instance; this bounds only what nobody is told of (a row written directly, a bus
 * notice lost).
 */
const VERIFIED_KEY_TTL_MS = 1_000;

/** Keys kept verified at once. */
const MAX_VERIFIED_KEYS = 10_000;

type KeyPrincipal = Extract<Principal, { kind: 'apiKey' }>;

/** API keys: creation, listing and revocation by their owner, and authentication of requests. */
export class ApiKeyService {
  /**
   * Hashes of well-formed keys seen lately, by key: a repeated key skips the format check, the
   * checksum and SHA-256 (most of what a keyed request costs beyond an anonymous one). Only the
   * hash is remembered here; whether the key holds is {@link #verified}'s.
   */
  readonly #hashes = new LRUCache<string, KeyHash>({ max: 10_000 });
  /**
   * Keys found valid lately, by stored hash: a repeated key is answered without a storage read
   * (or a promise) for {@link VERIFIED_KEY_TTL_MS}. {@link forget} drops them at once.
   */
  readonly #verified = new KeptPrincipals<KeyPrincipal>({ max: MAX_VERIFIED_KEYS, ttlMs: VERIFIED_KEY_TTL_MS });

  constructor(
    private readonly storage: AccountStorage,
    private readonly options: ApiKeyServiceOptions,
  ) {}

  /**
   * Creates a key for the caller; asking for a scope the caller does not hold is
   * {@link ForbiddenError}, and one key more than `maxLiveKeys` live ones is {@link ApiKeyLimitError}.
   */
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
      createdAt: new Date(this.options.now()),
    };
    // Storage counts and writes as one step: parallel requests cannot pass the cap together.
    if (!(await this.storage.createApiKey(stored, { maxLive: this.options.maxLiveKeys, now: stored.createdAt }))) throw new ApiKeyLimitError();
    return { ...formatApiKey(stored), key };
  }

  /** The caller's keys, newest first, revoked ones included. */
  async list(principal: Principal): Promise<ApiKeyRecord[]> {
    return (await this.storage.listApiKeys(principal.user.id)).map(formatApiKey);
  }

  /**
   * Revokes one of the caller's keys (requests with it are refused from now on, and WebSocket
   * connections opened with it close); anyone else's, or an unknown id, is {@link ApiKeyNotFoundError}.
   */
  async revoke(principal: Principal, id: string): Promise<ApiKeyRecord> {
    const key = await this.storage.updateApiKey(id, { isActive: false }, principal.user.id);
    if (!key) throw new ApiKeyNotFoundError();
    await this.#changed({ keyId: key.id });
    return formatApiKey(key);
  }

  /** Sets or clears (`null`) a key's own per-minute limit (an admin's act). */
  async setRateLimit(id: string, rateLimitPerMinute: number | null): Promise<ApiKeyRecord> {
    const key = await this.storage.updateApiKey(id, { rateLimitPerMinute });
    if (!key) throw new ApiKeyNotFoundError();
    // The key's share is part of what a verified key carries: its next request must count it.
    await this.#changed({ keyId: key.id });
    return formatApiKey(key);
  }

  /**
   * Drops what is kept verified of the named key, or of every key of the named user, so their
   * next request reads storage (a revocation, a deactivation, a change of roles or of a limit,
   * here or on another instance).
   */
  forget(change: Revocation): void {
    this.#verified.forget(change);
  }

  async #changed(change: Revocation): Promise<void> {
    this.forget(change);
    await this.options.onRevoked?.(change);
  }

  /**
   * The caller an `X-API-Key` proves. Malformed keys and bad checksums are refused before any
   * lookup; unknown, revoked and expired keys, and keys of deactivated users, after it. A key
   * verified lately is answered at once, without a promise (see {@link VERIFIED_KEY_TTL_MS});
   * a refusal is always a rejected promise.
   */
  authenticate(secret: string): Principal | Promise<Principal> {
    let keyHash: KeyHash;
    try {
      keyHash = this.hashOf(secret);
    } catch (error) {
      return Promise.reject(error);
    }
    const verified = this.#verified.get(keyHash.hex);
    if (verified === undefined) return this.#lookUp(keyHash);
    // Expiry is judged on every request: a kept key must not outlive its `expiresAt`.
    if (expired(verified.key, this.options.now())) {
      this.#verified.delete(keyHash.hex);
      return Promise.reject(new InvalidApiKeyError());
    }
    return verified;
  }

  async #lookUp(keyHash: KeyHash): Promise<Principal> {
    const generation = this.#verified.generation;
    const found = await this.storage.getApiKeyWithOwner(keyHash.hex);
    if (!found) throw new InvalidApiKeyError();
    const { key, owner } = found;
    if (!sameHash(key.keyHash, keyHash.bytes) || !key.isActive) throw new InvalidApiKeyError();
    if (expired(key, this.options.now())) throw new InvalidApiKeyError();
    if (!owner?.isActive) throw new InvalidApiKeyError();
    const principal: KeyPrincipal = { kind: 'apiKey', user: owner, key };
    this.#verified.keep(keyHash.hex, principal, generation);
    return principal;
  }

  /** The stored hash of `secret`; a malformed key or a bad checksum is {@link InvalidApiKeyError}. */
  private hashOf(secret: string): KeyHash {
    const known = this.#hashes.get(secret);
    if (known !== undefined) return known;
    const hex = checkApiKey(secret);
    if (hex === null) throw new InvalidApiKeyError();
    const keyHash = { hex, bytes: Buffer.from(hex, 'hex') };
    this.#hashes.set(secret, keyHash);
    return keyHash;
  }
}

/** A key's stored hash, as text for lookups and as bytes for comparisons. */
interface KeyHash {
  hex: string;
  bytes: Buffer;
}

function expired(key: StoredApiKey, now: number): boolean {
  return key.expiresAt !== null && key.expiresAt.getTime() <= now;
}

/** Constant-time equality of a stored hex hash and computed hash bytes. */
function sameHash(stored: string, computed: Buffer): boolean {
  const bytes = Buffer.from(stored, 'hex');
  return bytes.length === computed.length && timingSafeEqual(bytes, computed);
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
