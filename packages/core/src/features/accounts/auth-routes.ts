import { z } from 'zod';
import { SCOPES } from '../../auth/index.js';
import type { ApiKeyService } from './api-key-service.js';
import type { UserService } from './user-service.js';
import { defineRoute, type HttpRequest, type Route } from '../../http/index.js';
import { emailSchema, textSchema } from '../../http/request-schemas.js';
import { accessTokenSchema, apiKeyRecordSchema, createdApiKeyRecordSchema, userRecordSchema } from '../../records/account-record-schemas.js';

/** Options of {@link authRoutes}. */
export interface AuthRoutesOptions {
  /** Shortest accepted password at registration. */
  passwordMinLength: number;
  /** Current time in milliseconds (an expiry must lie after it). */
  clock: () => number;
  /** The client address of a request (registrations are throttled per address). */
  clientIp: (request: HttpRequest) => string;
}

/** Longest accepted password: long passphrases are welcome, megabytes for argon2 are not. */
const PASSWORD_MAX = 256;

/**
 * `/api/v1/auth/*`: registration, login, token refresh and API keys. Bodies are strict: a field
 * the caller may not set (`roles`, `isActive`, `id`, …) is refused, never applied.
 */
export function authRoutes(users: UserService, keys: ApiKeyService, options: AuthRoutesOptions): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/auth/register',
      response: userRecordSchema,
      errors: ['EMAIL_TAKEN'],
      auth: 'none',
      summary: 'Register a user (role `user`)',
      body: z.strictObject({
        email: emailSchema,
        password: z
          .string()
          .min(options.passwordMinLength, `must be at least ${options.passwordMinLength} characters`)
          .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`),
        name: textSchema(100, { min: 1 }),
      }),
      handler: ({ body, request }) => users.register(body, options.clientIp(request)),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/auth/login',
      response: accessTokenSchema,
      errors: ['INVALID_CREDENTIALS'],
      auth: 'none',
      summary: 'Exchange email and password for an access token',
      body: z.strictObject({ email: emailSchema, password: z.string().max(PASSWORD_MAX) }),
      handler: ({ body }) => users.login(body.email, body.password),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/auth/refresh',
      response: accessTokenSchema,
      auth: 'jwt',
      summary: 'A fresh access token for the bearer of a valid one',
      handler: ({ principal }) => users.refresh(principal!),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/auth/api-keys',
      response: createdApiKeyRecordSchema,
      errors: ['API_KEY_LIMIT'],
      auth: 'jwt',
      summary: 'Create an API key (at most `auth.maxApiKeysPerUser` live keys per user, 10 by default); its secret is answered this once',
      body: z.strictObject({
        name: textSchema(100, { min: 1 }),
        description: textSchema(500).optional(),
        scopes: z
          .array(z.enum(SCOPES, { message: `must each be one of ${SCOPES.join(', ')}` }))
          .min(1, 'must name at least one scope')
          .max(SCOPES.length * 2)
          .default(['read']),
        expiresAt: z.iso
          .datetime({ offset: true, message: 'must be an ISO 8601 date and time' })
          .transform((v) => new Date(v))
          .refine((date) => date.getTime() > options.clock(), 'must be in the future')
          .optional(),
      }),
      handler: ({ principal, body }) => keys.create(principal!, body),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/auth/api-keys',
      response: z.array(apiKeyRecordSchema),
      auth: 'jwt',
      summary: "The caller's API keys, newest first, without secrets",
      handler: ({ principal }) => keys.list(principal!),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/auth/api-keys/:id',
      response: apiKeyRecordSchema,
      errors: ['API_KEY_NOT_FOUND'],
      auth: 'jwt',
      summary: "Revoke one of the caller's API keys",
      params: z.object({ id: z.string().max(64) }),
      handler: ({ principal, params }) => keys.revoke(principal!, params.id.toLowerCase()),
    }),
  ];
}
