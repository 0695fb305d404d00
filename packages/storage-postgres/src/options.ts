import { ConfigError } from '@chainlens/core';
import { z } from 'zod';

/**
 * The pino-like logger of {@link postgresStorage}: `error` when an idle connection fails,
 * `warn` when the schema was migrated by a newer release.
 */
export interface PostgresStorageLogger {
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

const isLogger = (value: unknown): value is PostgresStorageLogger =>
  typeof value === 'object' &&
  value !== null &&
  ['warn', 'error'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function');

const millis = z.number().int().nonnegative();

/** Schema of {@link PostgresStorageOptions}; every default lives here. */
const optionsSchema = z.strictObject({
  /** `postgres://user:password@host:port/database`. */
  connectionString: z
    .string({ message: 'is required: a postgres:// URL of the database' })
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL of the database'),
  /**
   * Read replicas of the database (streaming standbys of `connectionString`): chain reads go to
   * them in turn, and the head an instance serves is theirs; writes, and reads that must see
   * them (the indexer, accounts, keys, rate-limit counters, verification jobs), go to the primary.
   */
  readConnectionStrings: z
    .array(z.string().regex(/^postgres(ql)?:\/\//, 'must be postgres:// URLs of read replicas'))
    .default([]),
  /** Schema holding every table; created by `init()` when missing. */
  schema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lowercase identifier: a-z, 0-9 and _, at most 63 characters')
    .default('public'),
  pool: z
    .strictObject({
      /** Most connections open at once. */
      max: z.number().int().min(1).default(10),
      /** How long an unused connection stays open (pg's default: 10 000 ms; 0 keeps it). */
      idleTimeoutMillis: millis.optional(),
      /** How long to wait for a connection before failing (pg's default: 0, no limit). */
      connectionTimeoutMillis: millis.optional(),
    })
    .prefault({}),
  /** Server-side limit of every statement, set on each connection. */
  statementTimeoutMs: z.number().int().min(1).default(10_000),
  /**
   * TCP keepalive of every connection (pool and coordinator): after this much silence both ends
   * probe, and a peer that answers none of ten probes a second apart is dropped. Whole seconds.
   */
  keepAliveInitialDelayMillis: z.number().int().min(1_000).default(10_000),
  /** Where pool errors and schema warnings are logged; default silent. */
  logger: z.custom<PostgresStorageLogger>(isLogger, 'must have warn and error methods, like a pino logger').optional(),
});

/** Options of {@link postgresStorage}. */
export type PostgresStorageOptions = z.input<typeof optionsSchema>;
/** The validated options with every default filled in. */
export type ResolvedPostgresStorageOptions = z.output<typeof optionsSchema>;

/** Validates options once, at creation; throws a {@link ConfigError} naming the first bad option. */
export function resolveOptions(options: PostgresStorageOptions): ResolvedPostgresStorageOptions {
  const parsed = optionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
  throw new ConfigError(['postgresStorage', ...path].join('.'), issue.message);
}
