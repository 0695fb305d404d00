import { z } from 'zod';

const int = (min: number) => z.number().int().min(min);

/** The `auth` slice of the explorer's config: access tokens, passwords and API keys. */
export const authConfigSchema = z
  .object({
    /**
     * HS256 secret of access tokens, at least 32 bytes. Unset: a random one per process (tokens
     * then die with the process and differ between instances), with a warning.
     */
    jwtSecret: z
      .string()
      .refine((v) => Buffer.byteLength(v) >= 32, 'must be at least 32 bytes (e.g. `openssl rand -base64 48`)')
      .optional(),
    /** Access token lifetime (`expires_in`). */
    tokenLifetimeSeconds: int(60).default(604_800),
    /** `iss` and `aud` of issued tokens; a token naming others is refused. */
    issuer: z.string().min(1).default('chainlens'),
    audience: z.string().min(1).default('chainlens-api'),
    /** Shortest password accepted at registration (NIST SP 800-63B-4: 15 for single-factor). */
    passwordMinLength: int(8).max(256).default(15),
    /** Live (active, unexpired) API keys one user may hold; creating another answers 409 `Error! API key limit reached`. */
    maxApiKeysPerUser: int(1).max(10_000).default(10),
  });

/** The `auth` options, resolved. */
export type AuthConfig = z.output<typeof authConfigSchema>;
