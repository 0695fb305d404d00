import { z } from 'zod';
import type { ApiKeyService } from './api-key-service.js';
import { ROLES, type UserService } from './user-service.js';
import { ApiKeyNotFoundError, UserNotFoundError } from '../../errors/index.js';
import { defineRoute, type Route } from '../../http/index.js';
import { emailSchema } from '../../http/request-schemas.js';
import { apiKeyRecordSchema, userRecordSchema } from '../../records/account-record-schemas.js';

/** Largest per-key per-minute limit an admin may set (above it, a key is effectively unlimited anyway). */
const MAX_KEY_LIMIT_PER_MINUTE = 100_000_000;

const id = z.string().max(64);

/**
 * `/api/v1/admin/*`: what an admin manages over HTTP (decisions.md: roles and per-key limits),
 * with a JWT of an admin or a key holding the `admin` scope.
 */
export function adminRoutes(users: UserService, keys: ApiKeyService): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/admin/users',
      response: userRecordSchema,
      errors: ['USER_NOT_FOUND'],
      auth: 'user',
      scope: 'admin',
      summary: 'Find a user by email',
      query: z.object({ email: emailSchema }),
      handler: async ({ query }) => (await users.findByEmail(query.email)) ?? notFound(UserNotFoundError),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/admin/users/:id',
      response: userRecordSchema,
      errors: ['USER_NOT_FOUND'],
      auth: 'user',
      scope: 'admin',
      summary: "Set a user's roles or active flag (a deactivated user's tokens and keys stop working)",
      params: z.object({ id }),
      body: z
        .strictObject({
          roles: z
            .array(z.enum(ROLES, { message: `must each be one of ${ROLES.join(', ')}` }))
            .max(ROLES.length * 2)
            .refine((roles) => roles.includes('user'), "must include 'user'")
            .optional(),
          isActive: z.boolean().optional(),
        })
        .refine((body) => body.roles !== undefined || body.isActive !== undefined, 'must set roles or isActive'),
      handler: async ({ params, body }) => (await users.update(params.id.toLowerCase(), body)) ?? notFound(UserNotFoundError),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/admin/api-keys/:id',
      response: apiKeyRecordSchema,
      errors: ['API_KEY_NOT_FOUND'],
      auth: 'user',
      scope: 'admin',
      summary: "Set or clear (null) a key's own per-minute rate limit",
      params: z.object({ id }),
      body: z.strictObject({
        rateLimitPerMinute: z.number().int('must be an integer').min(1, 'must be at least 1').max(MAX_KEY_LIMIT_PER_MINUTE).nullable(),
      }),
      handler: ({ params, body }) => keys.setRateLimit(params.id.toLowerCase(), body.rateLimitPerMinute),
    }),
  ];
}

function notFound(error: new () => UserNotFoundError | ApiKeyNotFoundError): never {
  throw new error();
}
