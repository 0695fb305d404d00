import type { AccountStore } from './roles/account-store.js';
import type { BlockReader } from './roles/block-reader.js';
import type { ChainWriter } from './roles/chain-writer.js';
import type { ChartReader } from './roles/chart-reader.js';
import type { CounterStore } from './roles/counter-store.js';
import type { ExportReader } from './roles/export-reader.js';
import type { LabelStore } from './roles/label-store.js';
import type { LogReader } from './roles/log-reader.js';
import type { MetadataStore } from './roles/metadata-store.js';
import type { PairReader } from './roles/pair-reader.js';
import type { StorageLifecycle } from './roles/lifecycle.js';
import type { TokenMetadataStore } from './roles/token-metadata-store.js';
import type { TokenReader } from './roles/token-reader.js';
import type { TransactionReader } from './roles/transaction-reader.js';
import type { VerificationStore } from './roles/verification-store.js';

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
    TokenMetadataStore,
    PairReader,
    ChartReader,
    ExportReader,
    AccountStore,
    LabelStore,
    MetadataStore,
    VerificationStore,
    CounterStore {}
