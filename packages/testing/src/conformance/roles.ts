/**
 * Which slices of the Storage conformance suite prove which role of `Storage` (the interfaces in
 * `packages/core/src/storage/roles/`): a backend that implements a role passes the files named
 * here. A slice may serve several roles (a rollback is checked through the reads it takes back),
 * and `harness.ts`'s shared checks (`expectStoredChain`) count for every slice that uses them.
 * `roles.test.ts` keeps this table whole: every role listed, every method of a role called by one
 * of its files, every slice of the suite listed under some role.
 */
export const conformanceByRole = {
  StorageLifecycle: ['lifecycle.ts'],
  ChainCursors: ['lifecycle.ts', 'blocks.ts', 'traces.ts'],
  ChainWriter: ['blocks.ts', 'rollback.ts', 'traces.ts'],
  BlockReader: ['blocks.ts', 'rollback.ts', 'totals.ts'],
  TransactionReader: ['transactions.ts', 'addresses.ts', 'internal-transactions.ts', 'contracts.ts', 'rollback.ts'],
  LogReader: ['logs.ts', 'log-topics.ts'],
  TokenReader: ['token-transfers.ts', 'token-search.ts', 'insights.ts'],
  JoinedPageReader: ['logs.ts', 'token-transfers.ts'],
  TokenMetadataStorage: ['token-transfers.ts', 'token-search.ts'],
  PairReader: ['dex.ts'],
  ChartReader: ['insights.ts'],
  ExportReader: ['exports.ts'],
  AccountStorage: ['users.ts', 'api-keys.ts'],
  LabelStorage: ['labels.ts'],
  MetadataStorage: ['metadata.ts'],
  VerificationStorage: ['verification.ts'],
  CounterStorage: ['counters.ts'],
  WebhookStorage: ['webhooks.ts'],
} as const satisfies Record<string, readonly string[]>;
