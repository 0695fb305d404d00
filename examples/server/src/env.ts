import { z } from 'zod';

/** A tier's allowance as operators write it: `<perMinute>/<perDay>`. */
const allowance = z
  .string()
  .regex(/^[1-9]\d{0,11}\/[1-9]\d{0,11}$/, 'must be <perMinute>/<perDay>, two positive integers such as 100/10000')
  .transform((value) => {
    const [perMinute, perDay] = value.split('/').map(Number) as [number, number];
    return { perMinute, perDay };
  });

/** The runtime contract of `npm start` (shared/spec/decisions.md), read from the environment. */
const envSchema = z.object({
  PORT: z.string().regex(/^\d+$/, 'must be a port number').transform(Number).refine((p) => p <= 65_535, 'must be at most 65535').default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  EXPLORER_RPC_URL: z.string().url().optional(),
  EXPLORER_WS_RPC_URL: z.string().regex(/^wss?:\/\//, 'must be a ws:// or wss:// URL').optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  /** Postgres schema for ChainLens's tables (beyond the runtime contract: lets several explorers share a database). */
  EXPLORER_DB_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lowercase SQL identifier').default('public'),
  EXPLORER_ADAPTER: z.enum(['fastify', 'express']).default('fastify'),
  EXPLORER_START_BLOCK: z.string().regex(/^\d+$/, 'must be a block number').default('0'),
  /** HS256 secret of access tokens; unset: a random one per process (with a warning). */
  EXPLORER_JWT_SECRET: z
    .string()
    .refine((v) => Buffer.byteLength(v) >= 32, 'must be at least 32 bytes (e.g. `openssl rand -base64 48`)')
    .optional(),
  EXPLORER_CONFIRMATIONS: z.string().regex(/^[1-9]\d*$/, 'must be a positive integer').transform(Number).default(12),
  /** `off` disables rate limiting (benchmarks; deployments behind a gateway that limits). */
  EXPLORER_RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /** The tiers' allowances (`rateLimits.anonymous` and so on); unset: the library's. */
  EXPLORER_RATE_LIMITS_ANONYMOUS: allowance.optional(),
  EXPLORER_RATE_LIMITS_AUTHENTICATED: allowance.optional(),
  EXPLORER_RATE_LIMITS_PREMIUM: allowance.optional(),
  /** WebSocket connections one client address may hold (beyond the runtime contract; default the library's). */
  EXPLORER_WS_MAX_CONNECTIONS_PER_IP: z.string().regex(/^[1-9]\d*$/, 'must be a positive integer').transform(Number).optional(),
  /** Price source on the upstream chain (the embedded chain brings its own): the quote token's address. */
  EXPLORER_PRICE_QUOTE_TOKEN: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address').optional(),
  /** USD value of one whole quote token. */
  EXPLORER_PRICE_QUOTE_USD: z.string().regex(/^\d{1,30}(\.\d{1,18})?$/, 'must be a decimal number such as 1 or 0.9998').default('1'),
  /** Uniswap-V2-compatible factories as `Name=0xfactory` pairs, comma-separated. */
  EXPLORER_PRICE_DEXES: z
    .string()
    .regex(/^[^=,]{1,64}=0x[0-9a-fA-F]{40}(,[^=,]{1,64}=0x[0-9a-fA-F]{40})*$/, 'must be Name=0xfactory pairs, comma-separated')
    .transform((v) => v.split(',').map((entry) => ({ name: entry.slice(0, entry.indexOf('=')).trim(), factory: entry.slice(entry.indexOf('=') + 1) })))
    .optional(),
  /** `true` allows webhook URLs on private, loopback and link-local addresses (`webhooks.allowPrivateTargets`). */
  EXPLORER_WEBHOOKS_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false'),
  /** Days the webhook outbox keeps deliveries done with (`webhooks.retentionMs`); unset: the library's 30. */
  EXPLORER_WEBHOOKS_RETENTION_DAYS: z.string().regex(/^[1-9]\d{0,4}$/, 'must be a whole number of days from 1 to 99999').transform(Number).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` lines or `json` lines; `auto`: pretty when stdout is a terminal (beyond the runtime contract). */
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
}).refine((env) => (env.EXPLORER_PRICE_QUOTE_TOKEN === undefined) === (env.EXPLORER_PRICE_DEXES === undefined), {
  message: 'EXPLORER_PRICE_QUOTE_TOKEN and EXPLORER_PRICE_DEXES must be set together',
  path: ['EXPLORER_PRICE_DEXES'],
});

/** The server's settings. A quote token and its DEXes come together or not at all. */
export type ServerEnv = z.output<typeof envSchema>;

/** Reads the environment; an invalid value throws an error naming the variable and the fix. */
export function readEnv(env: NodeJS.ProcessEnv): ServerEnv {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(defined);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(`Invalid environment: ${issue.path.join('.')}: ${issue.message}`);
}
