import { createExplorer, type ExplorerConfig } from '@chainlens/core';
import { memoryStorage } from '@chainlens/storage-memory';
import type { DemoContracts } from '@chainlens/devchain';
import { startEmbeddedChain, type EmbeddedChain } from './embedded-chain.js';
import { readEnv, type ServerEnv } from './env.js';
import { chooseLogFormat, createLogger } from './logging.js';
import { serve } from './serve.js';
import { stopOnSignals } from './stop-signals.js';

/**
 * `npm start`: the explorer on an embedded dev chain (or EXPLORER_RPC_URL) with memory storage
 * (or Postgres with DATABASE_URL),
 * following the runtime contract in shared/spec/decisions.md.
 */
async function main(): Promise<void> {
  const env = readEnv(process.env);
  const logger = await createLogger(env.LOG_LEVEL, chooseLogFormat(env.LOG_FORMAT, process.stdout.isTTY));
  const cleanups: (() => Promise<void>)[] = [];
  const stopping = stopOnSignals(async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => logger.error({ err: error }, 'error during shutdown'));
    }
  }, logger);

  let chain: EmbeddedChain | null = null;
  if (!env.EXPLORER_RPC_URL) {
    chain = await startEmbeddedChain(logger);
    cleanups.push(() => chain!.stop());
  }
  const postgres = env.DATABASE_URL ? { connectionString: env.DATABASE_URL, schema: env.EXPLORER_DB_SCHEMA, logger } : null;
  // Loaded only when asked for: the driver costs start-up time for nothing otherwise.
  const { postgresCoordinator, postgresStorage } = postgres ? await import('@chainlens/storage-postgres') : { postgresCoordinator: null, postgresStorage: null };
  const explorer = await createExplorer({
    rpcUrl: env.EXPLORER_RPC_URL ?? chain!.rpcUrl,
    wsRpcUrl: env.EXPLORER_WS_RPC_URL,
    prices: chain?.prices ?? pricesFromEnv(env),
    storage: postgres && postgresStorage ? postgresStorage(postgres) : memoryStorage(),
    coordinator: postgres && postgresCoordinator ? postgresCoordinator(postgres) : undefined,
    startBlock: env.EXPLORER_START_BLOCK,
    requiredConfirmations: env.EXPLORER_CONFIRMATIONS,
    auth: { jwtSecret: env.EXPLORER_JWT_SECRET },
    rateLimits: {
      enabled: env.EXPLORER_RATE_LIMITS === 'on',
      anonymous: env.EXPLORER_RATE_LIMITS_ANONYMOUS,
      authenticated: env.EXPLORER_RATE_LIMITS_AUTHENTICATED,
      premium: env.EXPLORER_RATE_LIMITS_PREMIUM,
    },
    sockets: { maxConnectionsPerIp: env.EXPLORER_WS_MAX_CONNECTIONS_PER_IP },
    webhooks: {
      allowPrivateTargets: env.EXPLORER_WEBHOOKS_ALLOW_PRIVATE_TARGETS === 'true',
      retentionMs: env.EXPLORER_WEBHOOKS_RETENTION_DAYS === undefined ? undefined : env.EXPLORER_WEBHOOKS_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    },
    // The explorer page at the root: what a person opening the printed address sees.
    ui: { path: '/' },
    logger,
  });
  cleanups.push(() => explorer.close());
  const server = await serve(explorer, env.EXPLORER_ADAPTER, env.HOST, env.PORT);
  cleanups.push(() => server.close());
  await explorer.start();
  if (stopping()) return;
  console.log(`ChainLens storage: ${postgres ? `Postgres ${describeDatabase(postgres.connectionString)}, schema ${postgres.schema}` : 'memory (kept in this process; gone when it stops)'}`);
  if (chain) console.log(`ChainLens demo contracts: ${describeContracts(chain.contracts)}`);
  // Where a person goes first; the listening line comes last, once everything is ready.
  console.log(`ChainLens explorer: ${server.url}/`);
  console.log(`ChainLens API reference: ${server.url}/docs`);
  console.log(`ChainLens GraphiQL: ${server.url}/graphql`);
  console.log(`ChainLens listening on ${server.url}`);
}

/** Where a connection string points, without its credentials. */
function describeDatabase(connectionString: string): string {
  const url = new URL(connectionString);
  return `at ${url.host}${url.pathname}`;
}

/** The demo contracts by what they are, e.g. `DEMO token (ERC-20) 0x…`. */
function describeContracts(contracts: DemoContracts<string>): string {
  const roles: [keyof DemoContracts<string>, string][] = [
    ['token', 'DEMO token (ERC-20)'],
    ['quoteToken', 'DUSD token (ERC-20)'],
    ['nft', 'NFT (ERC-721)'],
    ['multiToken', 'multi-token (ERC-1155)'],
    ['dexFactory', 'DEX factory'],
    ['dexPair', 'DEMO/DUSD pool'],
    ['emitter', 'event emitter'],
    ['reverter', 'reverter'],
    ['caller', 'caller'],
    ['child', "caller's child"],
  ];
  return roles.map(([role, name]) => `${name} ${contracts[role]}`).join(', ');
}

/** The price source the environment names, if any. */
function pricesFromEnv(env: ServerEnv): ExplorerConfig['prices'] {
  if (!env.EXPLORER_PRICE_QUOTE_TOKEN || !env.EXPLORER_PRICE_DEXES) return undefined;
  return { quoteToken: env.EXPLORER_PRICE_QUOTE_TOKEN, quoteTokenUsd: env.EXPLORER_PRICE_QUOTE_USD, dexes: env.EXPLORER_PRICE_DEXES };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
