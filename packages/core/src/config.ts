import type { Logger } from 'pino';
import { z } from 'zod';
import { configIssueMessage } from './config-messages.js';
import type { Coordinator } from './coordination/coordinator.js';
import { ConfigError } from './errors/index.js';
import { authConfigSchema } from './features/accounts/auth-config.js';
import { labelsConfigSchema } from './features/labels/labels-config.js';
import { priceSourceSchema, pricesConfigSchema } from './features/prices/prices-config.js';
import { rateLimitsConfigSchema } from './features/rate-limits/rate-limits-config.js';
import { verificationConfigSchema } from './features/verification/verification-config.js';
import { DEFAULT_BODY_DRAIN_LIMIT } from './http/request-body.js';
import type { Storage } from './storage/index.js';
import { webhookConfigSchema } from './features/webhooks/webhook-config.js';

const STORAGE_METHODS = ['init', 'close', 'writeBlock', 'rollbackTo', 'getCursor', 'getTransaction'] as const;

const isStorage = (value: unknown): value is Storage =>
  typeof value === 'object' && value !== null && STORAGE_METHODS.every((m) => typeof (value as Record<string, unknown>)[m] === 'function');

const isCoordinator = (value: unknown): value is Coordinator =>
  typeof value === 'object' && value !== null && ['acquireLease', 'holdsLease', 'publish', 'subscribe', 'close'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function');

const isLogger = (value: unknown): value is Logger =>
  typeof value === 'object' && value !== null && ['info', 'warn', 'error', 'child'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function');

const httpUrl = (what: string) =>
  z.string({ message: `${what} is required` }).refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), `must be an http(s) URL of ${what}`);

const int = (min: number) => z.number().int().min(min);

/** Newest indexed blocks whose producers make up the validator set and set the block time. */
const validatorWindowBlocks = int(1).max(10_000).default(100);

/** First path segments ChainLens's own routes use, which the page's path cannot take. */
const RESERVED_UI_SEGMENTS = ['api', 'docs', 'graphql', 'ws', 'metrics'];

/** Schema of {@link ExplorerConfig}; every default lives here. */
export const explorerConfigSchema = z.object({
  /** The upstream node's JSON-RPC over HTTP. */
  rpcUrl: httpUrl('the upstream JSON-RPC node'),
  /** Optional WebSocket JSON-RPC of the node, for new heads without polling delay. */
  wsRpcUrl: z
    .string()
    .refine((v) => /^wss?:\/\//i.test(v) && URL.canParse(v), 'must be a ws(s) URL')
    .optional(),
  /** Where indexed data lives: `memoryStorage()` or `await postgresStorage(...)`. */
  storage: z.custom<Storage>(isStorage, 'must be a Storage, e.g. memoryStorage() from @chainlens/storage-memory'),
  /**
   * Coordinates instances sharing one storage (one indexes, all hear its events), e.g.
   * `postgresCoordinator(...)`. Default: a single process.
   */
  coordinator: z.custom<Coordinator>(isCoordinator, 'must be a Coordinator, e.g. postgresCoordinator() from @chainlens/storage-postgres').optional(),
  cluster: z
    .object({
      /** How often an instance that does not index tries to take the indexer lease. */
      leaseRetryMs: int(10).default(2_000),
    })
    .prefault({}),
  /** First block to index when storage is empty. */
  startBlock: z
    .union([z.bigint(), z.number().int(), z.string().regex(/^\d+$/)], { message: 'must be a non-negative integer' })
    .transform((v) => BigInt(v))
    .refine((v) => v >= 0n, 'must be a non-negative integer')
    .default(0n),
  /** Confirmations that make a block final on chains without a `finalized` tag. */
  requiredConfirmations: int(1).default(12),
  /**
   * Where validators, consensus info and finality come from: `evm` (any node: block producers
   * from headers, the `finalized` tag or `requiredConfirmations`), `clique` (geth proof-of-authority)
   * or `cometbft` (CometBFT-based EVM chains, through the CometBFT RPC at `cometbftUrl`).
   */
  consensus: z
    .discriminatedUnion(
      'type',
      [
        z.object({ type: z.literal('evm'), validatorWindowBlocks }),
        z.object({
          type: z.literal('clique'),
          validatorWindowBlocks,
          /** The chain's clique `epoch` (geth's genesis default is 30000); unset, epochs are reported as unknown. */
          epochBlocks: int(1).optional(),
        }),
        z.object({ type: z.literal('cometbft'), validatorWindowBlocks, cometbftUrl: httpUrl('the CometBFT RPC, e.g. http://127.0.0.1:26657') }),
      ],
      { error: "type must be 'evm', 'clique' or 'cometbft'" },
    )
    .prefault({ type: 'evm' }),
  /** A pino logger to use; by default one is created at `logLevel`. */
  logger: z.custom<Logger>(isLogger, 'must be a pino logger').optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  http: z
    .object({
      /** Largest request body in bytes (larger → 413). */
      bodyLimit: int(1).default(1_048_576),
      /**
       * Bytes of a body over `bodyLimit` read and discarded before answering 413, so that a client
       * still sending can read the answer; beyond it the connection is closed after the answer.
       */
      bodyDrainLimit: int(0).default(DEFAULT_BODY_DRAIN_LIMIT),
      /** Timeout of each call to the upstream node, in milliseconds. */
      upstreamTimeoutMs: int(1).default(10_000),
    })
    .prefault({}),
  indexer: z
    .object({
      /** Whether `start()` indexes; instances that only serve set `false`. */
      enabled: z.boolean().default(true),
      concurrency: int(1).max(64).default(8),
      pollIntervalMs: int(10).default(1_000),
      retryBaseMs: int(1).default(250),
      maxBackoffMs: int(1).default(10_000),
      progressIntervalMs: int(100).default(5_000),
      /**
       * Read the call traces of each block in which a transaction ran code (`trace_block` where
       * the node has it, else `debug_traceBlockByHash` with the call tracer), to find the
       * contracts created inside transactions and internal transactions. They are read behind the
       * blocks, by a pipeline with its own cursor (`tracedBlock` in `/health`). A node that
       * answers it has neither method is detected once (logged); then only transactions' own
       * creations are found.
       */
      traces: z.boolean().default(true),
      /** Blocks traced at once while the indexer is caught up. */
      traceConcurrency: int(1).max(64).default(4),
      /**
       * Blocks traced at once while the indexer catches up (more than `concurrency` blocks behind
       * the node). By default none: the blocks, which every other answer waits for, get the node
       * and this process to themselves, and traces follow once the indexer has caught up (on a
       * long first sync, after its blocks; `tracedBlock` in `/health` tells how far). Raise it to
       * trace alongside, at some cost to the blocks' pace.
       */
      traceCatchUpConcurrency: int(0).max(64).default(0),
      /** Most blocks whose traces are written in one storage write. */
      traceBatchBlocks: int(1).max(1_000).default(100),
    })
    .prefault({}),
  pending: z
    .object({
      pollIntervalMs: int(10).default(1_000),
      maxTracked: int(1).default(10_000),
    })
    .prefault({}),
  reads: z
    .object({
      /**
       * Longest a served record may count confirmations from a cached indexed head, on an
       * instance that hears no block events (events keep it current otherwise; one that hears
       * them takes a newer stored block when its event arrives, or after this long unheard).
       */
      headMaxAgeMs: int(0).default(500),
      /**
       * Characters of answers kept by the response cache (routes whose answer only the indexed
       * head changes), half of them for answers kept across blocks that do not touch them (a
       * token's transfers); 0 turns it off.
       */
      responseCacheBytes: int(0).default(32 * 1024 * 1024),
      /**
       * Bytes of indexed records kept across blocks (transactions by hash, blocks by number: only
       * a reorg changes them); 0 turns it off.
       */
      recordCacheBytes: int(0).default(32 * 1024 * 1024),
      /**
       * Characters of ready-to-serve list rows kept by their place in their list (a token's
       * transfers, a contract's events), so that a page recomputed after a block is assembled from
       * them; 0 turns it off.
       */
      listRowCacheBytes: int(0).default(128 * 1024 * 1024),
    })
    .prefault({}),
  stats: z.object({ windowBlocks: int(2).max(10_000).default(100) }).prefault({}),
  /** Address labels: public ones set by admins, private ones (a watch list) per user. */
  labels: labelsConfigSchema.prefault({}),
  /** Webhooks at `/api/v1/account/webhooks`: signed POSTs of address activity, token transfers and blocks. */
  webhooks: webhookConfigSchema.prefault({}),
  /** CSV exports at `/api/v1/export/*.csv` (for signed-in callers). */
  exports: z
    .object({
      /** Most rows one export answers; the rest of an address's history is asked for by block range. */
      maxRows: int(1).default(100_000),
      /** Rows read from storage at a time while streaming (memory held per export is about this many). */
      pageRows: int(1).max(10_000).default(1_000),
      /** How many requests one export counts as against the caller's rate limit. */
      weight: int(1).default(20),
    })
    .prefault({}),
  traces: z
    .object({
      /** Characters of transaction traces (as JSON) kept once computed, least recently used out first. */
      cacheBytes: int(1).default(16 * 1024 * 1024),
    })
    .prefault({}),
  /** JSON-RPC at `POST {base_url}/`. */
  rpc: z
    .object({
      /** Most requests in one batch; a larger batch is refused whole (one Invalid Request). */
      maxBatch: int(1).max(1_000).default(100),
    })
    .prefault({}),
  /** GraphQL at `{base_url}/graphql`: limits checked on every document before any resolver runs. */
  graphql: z
    .object({
      /** Deepest field nesting of an operation (fragments followed); introspection under `__schema` and `__type` has a fixed budget of 15 instead. */
      maxDepth: int(1).max(100).default(8),
      /** Aliased fields in one document. */
      maxAliases: int(0).default(15),
      /** Directives in one document. */
      maxDirectives: int(0).default(10),
      /** Lexical tokens of one document (checked while parsing, so a huge document stops early). */
      maxTokens: int(1).default(2_000),
      /** Characters of one document. */
      maxCharacters: int(1).default(10_000),
      /**
       * Estimated cost of an operation: each field 1, each object field 2, times the `first` of
       * every list above it (a list without `first` counts its default page); introspection
       * fields count like any other.
       */
      maxCost: int(1).default(5_000),
      /** Largest `first` of a connection; a larger one is refused. */
      maxFirst: int(1).max(1_000).default(100),
      /** Page size of a connection asked without `first`. */
      defaultFirst: int(1).default(10),
      /** Operations in one batched POST (an array); a larger batch is refused whole. */
      maxBatch: int(1).max(100).default(10),
      /** Schema introspection (`__schema`, `__type`); GraphiQL needs it. */
      introspection: z.boolean().default(true),
      /** "Did you mean …?" hints in validation errors, which reveal the schema's names. */
      fieldSuggestions: z.boolean().default(true),
    })
    .refine((options) => options.defaultFirst <= options.maxFirst, { path: ['defaultFirst'], message: 'must not exceed maxFirst' })
    .prefault({}),
  tokens: z
    .object({
      /** Tokens whose name, symbol and decimals are read from their contracts per round. */
      metadataBatchSize: int(1).max(1_000).default(25),
      /** Wait between metadata rounds once every token is read (a new block wakes it sooner). */
      metadataIdleMs: int(10).default(2_000),
    })
    .prefault({}),
  /**
   * The built-in price source: Uniswap-V2-compatible pairs on the chain itself, priced against one
   * quote token of known USD value. Unset, and no `priceSource`: every price, market cap, volume
   * and liquidity is `null`.
   */
  prices: pricesConfigSchema.optional(),
  /** A price source of your own (an oracle, a market data feed) instead of `prices`. */
  priceSource: priceSourceSchema.optional(),
  auth: authConfigSchema.prefault({}),
  rateLimits: rateLimitsConfigSchema.prefault({}),
  /** Prometheus metrics at `GET /metrics`. */
  metrics: z
    .object({
      /** `false` serves no `/metrics` and measures nothing per request. */
      enabled: z.boolean().default(true),
      /**
       * The scope a caller needs (an admin's JWT or API key with the `admin` scope); `null` makes
       * `/metrics` public, for scrapers on a private network.
       */
      scope: z.enum(['admin'], { error: "must be 'admin' or null (public)" }).nullable().default('admin'),
    })
    .prefault({}),
  /**
   * The explorer web page (`@chainlens/ui`: home, blocks, transactions, addresses, tokens,
   * validators, search), served at `path` with its assets under `{path}/assets/`, no CDN. Unset
   * (the default for embedders): no page. `npm start` serves it at `/`.
   */
  ui: z
    .object({
      /** Where the page is served, relative to where ChainLens is mounted: `/` or a path such as `/explorer`. */
      path: z
        .string()
        .regex(/^\/([A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*)?$/, "must be '/' or a path such as '/explorer' (letters, digits, '.', '_', '~', '-' between slashes, no trailing slash)")
        .refine((path) => !RESERVED_UI_SEGMENTS.includes(path.split('/')[1]!), `must not start with a path ChainLens serves itself (/${RESERVED_UI_SEGMENTS.join(', /')})`)
        .default('/'),
    })
    .strict()
    .optional(),
  /** Current time in milliseconds; tests inject one to move time. */
  clock: z.custom<() => number>((v) => typeof v === 'function', 'must be a function returning milliseconds').default(() => Date.now),
  health: z
    .object({
      maxLag: int(0).default(100),
      probeTimeoutMs: int(1).default(2_000),
    })
    .prefault({}),
  /** Source verification: compiling submitted Solidity in worker threads. */
  verification: verificationConfigSchema.prefault({}),
  /** WebSocket connections (the channel protocol at `/ws` and every other socket endpoint). */
  sockets: z
    .object({
      /** Largest incoming message in bytes; a larger one closes the connection with code 1009. */
      maxMessageBytes: int(1).default(64 * 1024),
      /** Channel subscriptions one connection may hold at once. */
      maxSubscriptions: int(1).default(50),
      /** Connections per client address (as the rate limits see it), handshakes in flight included; beyond them, 429 at connect. */
      maxConnectionsPerIp: int(1).default(100),
      /** How often every peer is pinged; one that did not answer the previous ping is terminated. */
      heartbeatIntervalMs: int(10).default(30_000),
      /**
       * How often the credentials of authenticated connections are checked again; one whose
       * credentials no longer hold is closed (4401). Revocations and deactivations close them at
       * once anyway (on every instance of a cluster); this bounds how long one whose notice was
       * lost stays open.
       */
      credentialCheckIntervalMs: int(10).default(5_000),
      /** Bytes a client may leave unread in its send buffer; past them it is terminated. */
      maxBufferedBytes: int(1).default(1024 * 1024),
      /** Origins (`https://app.example`) allowed to connect from a browser; unset allows any. */
      allowedOrigins: z.array(z.string().min(1)).optional(),
      /** Most blocks a subscription's `fromBlock` may replay. */
      maxReplayBlocks: int(1).default(1_000),
      /** Newest blocks whose sent data is remembered, to re-send it with `removed: true` after a reorg. */
      reorgMemoryBlocks: int(1).default(128),
    })
    .prefault({}),
}).strict().refine((config) => !(config.prices && config.priceSource), {
  path: ['priceSource'],
  message: 'set either prices (Uniswap-V2 pairs on the chain) or priceSource (your own), not both',
});

/** What `createExplorer` accepts. */
export type ExplorerConfig = z.input<typeof explorerConfigSchema>;
/** The validated config with every default filled in. */
export type ResolvedConfig = z.output<typeof explorerConfigSchema>;

/** Validates a config once, at creation. Throws one {@link ConfigError} naming the first bad option. */
export function resolveConfig(config: ExplorerConfig): ResolvedConfig {
  const parsed = explorerConfigSchema.safeParse(config, { error: configIssueMessage });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  // A misspelled option is named itself, not its parent object.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
  throw new ConfigError(path.join('.') || '(root)', issue.message);
}
