import type { ApiKeyWithOwner, StoredApiKey, StoredUser } from '@chainlens/core';
import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

/** User columns aliased to {@link StoredUser} keys: a row is the record as is. */
const USER_COLUMNS = `id, email, name, password_hash AS "passwordHash", roles, is_active AS "isActive",
  created_at AS "createdAt"`;

/** API key columns aliased to {@link StoredApiKey} keys. */
const API_KEY_COLUMNS = `id, user_id AS "userId", name, description, key_hash AS "keyHash", prefix, scopes,
  expires_at AS "expiresAt", is_active AS "isActive", rate_limit_per_minute AS "rateLimitPerMinute",
  created_at AS "createdAt"`;

/** {@link API_KEY_COLUMNS} of alias `k` and {@link USER_COLUMNS} of alias `u`, told apart by prefix. */
const KEY_AND_OWNER_COLUMNS = `k.id AS "key.id", k.user_id AS "key.userId", k.name AS "key.name",
  k.description AS "key.description", k.key_hash AS "key.keyHash", k.prefix AS "key.prefix", k.scopes AS "key.scopes",
  k.expires_at AS "key.expiresAt", k.is_active AS "key.isActive", k.rate_limit_per_minute AS "key.rateLimitPerMinute",
  k.created_at AS "key.createdAt", u.id AS "owner.id", u.email AS "owner.email", u.name AS "owner.name",
  u.password_hash AS "owner.passwordHash", u.roles AS "owner.roles", u.is_active AS "owner.isActive",
  u.created_at AS "owner.createdAt"`;

/** A row of `apiKeyWithOwner`: the two records flattened under `key.` and `owner.` prefixes. */
export type KeyAndOwnerRow = Record<string, unknown>;

/** Splits a {@link KeyAndOwnerRow} into the key and its owner (`null` when the join found none). */
export function toKeyWithOwner(row: KeyAndOwnerRow): ApiKeyWithOwner {
  const part = (prefix: string) =>
    Object.fromEntries(Object.entries(row).filter(([name]) => name.startsWith(prefix)).map(([name, value]) => [name.slice(prefix.length), value]));
  const owner = part('owner.') as unknown as StoredUser;
  return { key: part('key.') as unknown as StoredApiKey, owner: owner.id === null ? null : owner };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whether `id` is a canonical (lowercase) UUID, the only form storage holds. Checked before an
 * id reaches a `uuid` parameter: Postgres would reject other text with an error, where the
 * contract wants a miss, and would accept forms (uppercase, no hyphens) that must not match.
 */
export function isUuid(id: string): boolean {
  return UUID.test(id);
}

/**
 * The statements of users and API keys. Updates take every field with a "leave it" value, so
 * each is one fixed statement: `NULL` for a field that cannot be null, and for the nullable
 * rate limit a separate flag saying whether it is set at all.
 */
export function accountStatements(t: Tables) {
  return {
    createUser: {
      name: 'chainlens_create_user',
      // ON CONFLICT also settles a race: a second insert of one email waits for the first and
      // then does nothing.
      text: `INSERT INTO ${t.users} (id, email, name, password_hash, roles, is_active, created_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (email) DO NOTHING
        RETURNING id`,
    },
    userById: {
      name: 'chainlens_user_by_id',
      text: `SELECT ${USER_COLUMNS} FROM ${t.users} WHERE id = $1`,
    },
    userByEmail: {
      name: 'chainlens_user_by_email',
      text: `SELECT ${USER_COLUMNS} FROM ${t.users} WHERE email = $1`,
    },
    updateUser: {
      name: 'chainlens_update_user',
      text: `UPDATE ${t.users} SET roles = COALESCE($2::text[], roles), is_active = COALESCE($3::boolean, is_active)
        WHERE id = $1
        RETURNING ${USER_COLUMNS}`,
    },
    createApiKey: {
      name: 'chainlens_create_api_key',
      text: `INSERT INTO ${t.apiKeys} (id, user_id, name, description, key_hash, prefix, scopes, expires_at, is_active,
          rate_limit_per_minute, created_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    },
    // A transaction-scoped lock on one owner's keys ($1 names the schema and the owner).
    lockKeysOfUser: {
      name: 'chainlens_lock_api_keys_of_user',
      text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
    },
    // createApiKey's insert, only while the owner holds fewer than $13 keys live at $12.
    createApiKeyWithin: {
      name: 'chainlens_create_api_key_within',
      text: `INSERT INTO ${t.apiKeys} (id, user_id, name, description, key_hash, prefix, scopes, expires_at, is_active,
          rate_limit_per_minute, created_at)
        SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::text[], $8::timestamptz, $9::boolean, $10::integer,
          $11::timestamptz
        WHERE (SELECT count(*) FROM ${t.apiKeys}
          WHERE user_id = $2::uuid AND is_active AND (expires_at IS NULL OR expires_at > $12::timestamptz)) < $13::integer
        RETURNING id`,
    },
    apiKeyWithOwner: {
      name: 'chainlens_api_key_with_owner',
      text: `SELECT ${KEY_AND_OWNER_COLUMNS} FROM ${t.apiKeys} k LEFT JOIN ${t.users} u ON u.id = k.user_id WHERE k.key_hash = $1`,
    },
    apiKeyByHash: {
      name: 'chainlens_api_key_by_hash',
      text: `SELECT ${API_KEY_COLUMNS} FROM ${t.apiKeys} WHERE key_hash = $1`,
    },
    apiKeysOfUser: {
      name: 'chainlens_api_keys_of_user',
      text: `SELECT ${API_KEY_COLUMNS} FROM ${t.apiKeys} WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
    },
    // $3 says whether $4 is the new rate limit: a null $4 with $3 true clears the limit.
    // $5 is the owner the key must belong to, or null for any owner.
    updateApiKey: {
      name: 'chainlens_update_api_key',
      text: `UPDATE ${t.apiKeys} SET
          is_active = COALESCE($2::boolean, is_active),
          rate_limit_per_minute = CASE WHEN $3::boolean THEN $4::integer ELSE rate_limit_per_minute END
        WHERE id = $1 AND ($5::uuid IS NULL OR user_id = $5)
        RETURNING ${API_KEY_COLUMNS}`,
    },
  } satisfies Record<string, Statement>;
}

/** The account statements of one schema. */
export type AccountStatements = ReturnType<typeof accountStatements>;
