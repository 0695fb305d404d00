import { z } from 'zod';
import type { UserService } from '../../auth/index.js';
import { defineRoute, type Route } from '../../http/index.js';

/** Options of {@link authRoutes}. */
export interface AuthRoutesOptions {
  /** Shortest accepted password at registration. */
  passwordMinLength: number;
}

/** Longest accepted password: long passphrases are welcome, megabytes for argon2 are not. */
const PASSWORD_MAX = 256;

/**
 * `/api/v1/auth/*`: registration, login and token refresh. Bodies are strict: a field the caller
 * may not set (`roles`, `isActive`, `id`, …) is refused, never applied.
 */
export function authRoutes(users: UserService, options: AuthRoutesOptions): Route[] {
  const email = z.string().trim().max(254, 'must be at most 254 characters').pipe(z.email({ message: 'must be a valid email address' }));
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/auth/register',
      auth: 'none',
      summary: 'Register a user (role `user`)',
      body: z.strictObject({
        email,
        password: z
          .string()
          .min(options.passwordMinLength, `must be at least ${options.passwordMinLength} characters`)
          .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`),
        name: z
          .string()
          .trim()
          .min(1, 'must not be empty')
          .max(100, 'must be at most 100 characters')
          .refine((v) => !/\p{Cc}/u.test(v), 'must not contain control characters'),
      }),
      handler: ({ body }) => users.register(body),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/auth/login',
      auth: 'none',
      summary: 'Exchange email and password for an access token',
      body: z.strictObject({ email, password: z.string().max(PASSWORD_MAX) }),
      handler: ({ body }) => users.login(body.email, body.password),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/auth/refresh',
      auth: 'jwt',
      summary: 'A fresh access token for the bearer of a valid one',
      handler: ({ principal }) => users.refresh(principal!),
    }),
  ];
}
