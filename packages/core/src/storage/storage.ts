import type { AccountStorage } from './roles/account-storage.js';
import type { BlockReader } from './roles/block-reader.js';
import type { ChainWriter } from './roles/chain-writer.js';
import type { ChartReader } from './roles/chart-reader.js';
import type { CounterStorage } from './roles/counter-storage.js';
import type { ExportReader } from './roles/export-reader.js';
import type { JoinedPageReader } from './roles/joined-page-reader.js';
import type { LabelStorage } from './roles/label-storage.js';
import type { LogReader } from './roles/log-reader.js';
import type { MetadataStorage } from './roles/metadata-storage.js';
import type { PairReader } from './roles/pair-reader.js';
import type { StorageLifecycle } from './roles/lifecycle.js';
import type { TokenMetadataStorage } from './roles/token-metadata-storage.js';
import type { TokenReader } from './roles/token-reader.js';
import type { TransactionReader } from './roles/transaction-reader.js';
import type { VerificationStorage } from './roles/verification-storage.js';
import type { WebhookStorage } from './roles/webhook-storage.js';

/**
 * The one persistence contract of ChainLens, made of roles: each backend (memory, Postgres)
 * implements every role; `@chainlens/testing` holds the conformance suite that proves it, one
 * slice per role (see its `roles.ts`). Code that uses storage takes only the roles it needs.
 *
 * Rules for every implementation:
 * - Inputs are canonical (lowercase hex, see `Hex` in `records.ts`); lookups by hash or address MUST match
 *   them exactly. Records MUST come back equal (`toEqual`) to what was written.
 * - A lookup of something absent MUST resolve `null` (or an empty array), never throw. Throwing is
 *   for real failures (connection lost, query error) only.
 * - Reads MUST only ever see whole blocks: a concurrent reader sees a block's bundle either
 *   completely or not at all.
 */
export interface Storage
  extends StorageLifecycle,
    ChainWriter,
    BlockReader,
    TransactionReader,
    LogReader,
    TokenReader,
    JoinedPageReader,
    TokenMetadataStorage,
    PairReader,
    ChartReader,
    ExportReader,
    AccountStorage,
    LabelStorage,
    MetadataStorage,
    VerificationStorage,
    CounterStorage,
    WebhookStorage {}
