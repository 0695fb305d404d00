import { z } from 'zod';
import type { ApiKeyRecord, CreatedApiKeyRecord } from '../auth/api-key-service.js';
import type { AccessToken } from '../auth/jwt.js';
import type { UserRecord } from '../auth/user-record.js';

/**
 * zod descriptions of the account records, for the API description (`/api/v1/openapi.json`);
 * `record-schemas.ts` checks each one against its interface with the other records.
 */

/** A user, as registration and the admin routes answer it (never the password hash). */
export const userRecordSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: z.string().describe('ISO 8601'),
});

/** An API key as listed: never its secret. */
export const apiKeyRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('the first characters of the key, to recognise it'),
  scopes: z.array(z.string()),
  expiresAt: z.string().nullable(),
  isActive: z.boolean(),
  rateLimitPerMinute: z.number().int().nullable(),
  createdAt: z.string(),
});

/** A new API key: the only answer that carries the key itself. */
export const createdApiKeyRecordSchema = apiKeyRecordSchema.extend({ key: z.string().describe('shown once; send it as X-API-Key') });

/** An access token (login and refresh). */
export const accessTokenSchema = z.object({ access_token: z.string(), expires_in: z.number().int().describe('seconds') });
