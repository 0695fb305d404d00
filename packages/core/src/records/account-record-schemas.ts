import { z } from 'zod';

/**
 * The account records: zod schemas for the API description (`/api/v1/openapi.json`), from
 * which `features/accounts/` infers the records' types.
 */

/** A user, as registration and the admin routes answer it (never the password hash). */
export const userRecordSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  isActive: z.boolean(),
  /** ISO 8601. */
  createdAt: z.string().describe('ISO 8601'),
});

/** An API key as listed: never its secret. */
export const apiKeyRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart. */
  prefix: z.string().describe('the first characters of the key, to recognise it'),
  scopes: z.array(z.string()),
  /** ISO 8601, or `null` for a key that does not expire. */
  expiresAt: z.string().nullable(),
  isActive: z.boolean(),
  /** A per-minute limit an admin set, or `null`. */
  rateLimitPerMinute: z.number().int().nullable(),
  createdAt: z.string(),
});

/** A new API key: the only answer that carries the key itself. */
export const createdApiKeyRecordSchema = apiKeyRecordSchema.extend({ key: z.string().describe('shown once; send it as X-API-Key') });

/** An access token (login and refresh). */
export const accessTokenSchema = z.object({ access_token: z.string(), expires_in: z.number().int().describe('seconds') });
