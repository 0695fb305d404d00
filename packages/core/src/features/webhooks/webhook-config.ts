import { z } from 'zod';

const int = (min: number) => z.number().int().min(min);

/**
 * The `webhooks` slice of the explorer's config: where deliveries may go, per-user caps, and how
 * the outbox is sent (retries, leases, timeouts).
 */
export const webhookConfigSchema = z
  .object({
    /** Whether this instance sends deliveries (any number of instances may; each delivery is leased to one). */
    dispatch: z.boolean().default(true),
    /**
     * Allow targets that resolve to private, loopback or link-local addresses (a hook on the
     * operator's own network). Off by default: such URLs are refused (SSRF).
     */
    allowPrivateTargets: z.boolean().default(false),
    /** Most webhooks one user may hold. */
    maxPerUser: int(1).max(10_000).default(10),
    /** Most addresses (and, separately, tokens) one webhook may watch. */
    maxAddressesPerWebhook: int(1).max(100_000).default(10_000),
    /** First retry delay; each further retry doubles it (with jitter) up to `retryMaxMs`. */
    retryBaseMs: int(1).default(5_000),
    /** Longest delay between two attempts. */
    retryMaxMs: int(1).default(4 * 60 * 60 * 1000),
    /** A webhook failing this long without a success is disabled with its reason (retries go on until then). */
    disableAfterMs: int(1).default(3 * 24 * 60 * 60 * 1000),
    /** Wall-clock limit of one attempt, connection to the last byte read. */
    timeoutMs: int(1).max(60_000).default(10_000),
    /** How long a claimed delivery is this instance's alone; after a crash another instance takes it after this. Longer than `timeoutMs`. */
    leaseMs: int(1).default(60_000),
    /** How often the outbox is polled for due deliveries (new blocks also wake it). */
    pollIntervalMs: int(1).default(1_000),
    /** Deliveries (each to a different webhook) this instance sends at once. */
    concurrency: int(1).max(1_000).default(32),
    /** How long a rotated-out secret still signs deliveries beside the new one. */
    secretOverlapMs: int(0).default(24 * 60 * 60 * 1000),
    /**
     * How long the outbox keeps deliveries done with: delivered ones (from their delivery), failed
     * ones and those of disabled webhooks (from their creation). Older ones are deleted in batches
     * by the instance that indexes (the cluster's leaseholder).
     */
    retentionMs: int(1).default(30 * 24 * 60 * 60 * 1000),
    /** How often that instance looks for deliveries past `retentionMs`. */
    pruneIntervalMs: int(1).default(60 * 60 * 1000),
    /** Most deliveries one delete takes (each batch is its own short write). */
    pruneBatch: int(1).max(100_000).default(1_000),
  })
  .refine((config) => config.leaseMs > config.timeoutMs, { path: ['leaseMs'], message: 'must be longer than webhooks.timeoutMs' })
  .refine((config) => config.retryMaxMs >= config.retryBaseMs, { path: ['retryMaxMs'], message: 'must be at least webhooks.retryBaseMs' });

/** The resolved `webhooks` options. */
export type WebhookConfig = z.output<typeof webhookConfigSchema>;
