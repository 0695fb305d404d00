import type { AccountStorage, ApiKeyCap, ApiKeyChanges, ApiKeyWithOwner, StoredApiKey, StoredUser, UserChanges } from '@chainlens/core';
import { type AccountStatements, isUuid, type KeyAndOwnerRow, toKeyWithOwner } from './account-queries.js';
import type { RolePools } from './role-pools.js';
import { inTransaction } from './transaction.js';

/** Users and API keys on the primary: single statements that never wait on ingest. */
export class PostgresAccountStorage implements AccountStorage {
  constructor(
    private readonly pools: RolePools,
    private readonly statements: AccountStatements,
  ) {}

  async createUser({ id, email, name, passwordHash, roles, isActive, createdAt }: StoredUser): Promise<boolean> {
    const { rowCount } = await this.pools.primary.query({
      ...this.statements.createUser,
      values: [id, email, name, passwordHash, roles, isActive, createdAt],
    });
    return rowCount === 1;
  }

  async getUserById(id: string): Promise<StoredUser | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.pools.primary.query<StoredUser>({ ...this.statements.userById, values: [id] });
    return rows[0] ?? null;
  }

  async getUserByEmail(email: string): Promise<StoredUser | null> {
    // Postgres text cannot hold NUL, so no stored email has one (and the query would fail).
    if (email.includes('\u0000')) return null;
    const { rows } = await this.pools.primary.query<StoredUser>({ ...this.statements.userByEmail, values: [email] });
    return rows[0] ?? null;
  }

  async updateUser(id: string, { roles, isActive }: UserChanges): Promise<StoredUser | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.pools.primary.query<StoredUser>({
      ...this.statements.updateUser,
      values: [id, roles ?? null, isActive ?? null],
    });
    return rows[0] ?? null;
  }

  async createApiKey(key: StoredApiKey, cap?: ApiKeyCap): Promise<boolean> {
    const { id, userId, name, description, keyHash, prefix, scopes, expiresAt, isActive, rateLimitPerMinute, createdAt } = key;
    const values = [id, userId, name, description, keyHash, prefix, scopes, expiresAt, isActive, rateLimitPerMinute, createdAt];
    if (!cap) {
      await this.pools.primary.query({ ...this.statements.createApiKey, values });
      return true;
    }
    // One owner's capped creations take turns: each counts after the one before it committed.
    return inTransaction(this.pools.primary, async (client) => {
      await client.query({ ...this.statements.lockKeysOfUser, values: [`chainlens:api-keys:${this.pools.schema}:${userId}`] });
      const { rows } = await client.query({ ...this.statements.createApiKeyWithin, values: [...values, cap.now, cap.maxLive] });
      return rows.length === 1;
    });
  }

  async getApiKeyByHash(keyHash: string): Promise<StoredApiKey | null> {
    const { rows } = await this.pools.primary.query<StoredApiKey>({ ...this.statements.apiKeyByHash, values: [keyHash] });
    return rows[0] ?? null;
  }

  async getApiKeyWithOwner(keyHash: string): Promise<ApiKeyWithOwner | null> {
    const { rows } = await this.pools.primary.query<KeyAndOwnerRow>({ ...this.statements.apiKeyWithOwner, values: [keyHash] });
    return rows[0] ? toKeyWithOwner(rows[0]) : null;
  }

  async listApiKeys(userId: string): Promise<StoredApiKey[]> {
    if (!isUuid(userId)) return [];
    const { rows } = await this.pools.primary.query<StoredApiKey>({ ...this.statements.apiKeysOfUser, values: [userId] });
    return rows;
  }

  async updateApiKey(
    id: string,
    { isActive, rateLimitPerMinute }: ApiKeyChanges,
    ownerId?: string,
  ): Promise<StoredApiKey | null> {
    if (!isUuid(id) || (ownerId !== undefined && !isUuid(ownerId))) return null;
    const { rows } = await this.pools.primary.query<StoredApiKey>({
      ...this.statements.updateApiKey,
      // `rateLimitPerMinute: null` clears the limit; only an absent field leaves it.
      values: [id, isActive ?? null, rateLimitPerMinute !== undefined, rateLimitPerMinute ?? null, ownerId ?? null],
    });
    return rows[0] ?? null;
  }
}
