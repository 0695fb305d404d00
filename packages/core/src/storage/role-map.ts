import type { AccountStorage } from './roles/account-storage.js';
import type { BlockReader } from './roles/block-reader.js';
import type { ChainCursors } from './roles/chain-cursors.js';
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

/** Every role of `Storage` by name: what a feature module declares it reads or writes. */
export interface StorageRoles {
  AccountStorage: AccountStorage;
  BlockReader: BlockReader;
  ChainCursors: ChainCursors;
  ChainWriter: ChainWriter;
  ChartReader: ChartReader;
  CounterStorage: CounterStorage;
  ExportReader: ExportReader;
  JoinedPageReader: JoinedPageReader;
  LabelStorage: LabelStorage;
  LogReader: LogReader;
  MetadataStorage: MetadataStorage;
  PairReader: PairReader;
  StorageLifecycle: StorageLifecycle;
  TokenMetadataStorage: TokenMetadataStorage;
  TokenReader: TokenReader;
  TransactionReader: TransactionReader;
  VerificationStorage: VerificationStorage;
  WebhookStorage: WebhookStorage;
}

/** The name of one role of `Storage`. */
export type StorageRole = keyof StorageRoles;

type Intersection<U> = (U extends unknown ? (role: U) => void : never) extends (role: infer I) => void ? I : never;

/**
 * The storage handed to a module that declared the roles `R`: their methods and no other's
 * (an object with none when it declared none).
 */
export type StorageOf<R extends StorageRole> = [R] extends [never] ? Record<never, never> : Intersection<StorageRoles[R]>;
